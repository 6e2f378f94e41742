// pte_runner: the "pte-runner" protocol, version 1, over the stock ExecuTorch
// C++ runtime (extension::Module). The checker (`pte samples check ... -- CMD`)
// starts this program, writes requests to its stdin and reads replies from its
// stdout. Each message is one JSON line, optionally followed by `data` bytes of
// safetensors holding the tensors the message refers to.
//
// usage: pte_runner MODEL.pte [--ptd DATA.ptd]...
//
// With --replay it needs no checker: it reads a package's recorded calls with
// libpte (pte.h), runs them and compares the outputs itself (see Replay).
//        pte_runner --replay PACKAGE.ptn|BUNDLE.bpte [MODEL.pte] [--ptd DATA.ptd]...
#include <executorch/extension/data_loader/buffer_data_loader.h>
#include <executorch/extension/module/module.h>
#include <executorch/extension/tensor/tensor.h>
#include <executorch/runtime/core/exec_aten/util/dim_order_util.h>
#include <executorch/runtime/platform/runtime.h>
#include <nlohmann/json.hpp>
#include <pte.h>

#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

using json = nlohmann::json;
using executorch::aten::ScalarType;
using executorch::aten::Tensor;
using executorch::extension::Module;
using executorch::runtime::EValue;

namespace {

struct Fail : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// ---- dtypes: safetensors code <-> ExecuTorch ScalarType ----
const std::pair<const char*, ScalarType> kDtypes[] = {
    {"F64", ScalarType::Double}, {"F32", ScalarType::Float},
    {"F16", ScalarType::Half},   {"BF16", ScalarType::BFloat16},
    {"I64", ScalarType::Long},   {"I32", ScalarType::Int},
    {"I16", ScalarType::Short},  {"I8", ScalarType::Char},
    {"U8", ScalarType::Byte},    {"BOOL", ScalarType::Bool},
};
ScalarType to_scalar_type(const std::string& code) {
  for (auto& [c, t] : kDtypes)
    if (code == c) return t;
  throw Fail("unsupported dtype " + code);
}
const char* to_code(ScalarType t) {
  for (auto& [c, st] : kDtypes)
    if (st == t) return c;
  throw Fail("output has unsupported scalar type " +
             std::to_string(static_cast<int>(t)));
}
size_t elem_size(ScalarType t) { return executorch::runtime::elementSize(t); }
// ---- runtime errors: the runtime logs the reason, the reply should carry it ----
std::string log_errors;  // the runtime's error-level log lines for this request
void log_hook(et_timestamp_t, et_pal_log_level_t level, const char* file,
              const char*, size_t line, const char* msg, size_t len) {
  std::fprintf(stderr, "%c executorch:%s:%zu] %.*s\n", (char)level, file, line,
               (int)len, msg);
  if (level == kError || level == kFatal)
    log_errors += (log_errors.empty() ? "" : "; ") + std::string(msg, len);
}
std::string describe(executorch::runtime::Error e) {
  std::string s = executorch::runtime::to_string(e);
  if (!log_errors.empty()) s += ": " + log_errors;
  return s;
}

// ---- framing ----
int proto_fd = -1;  // the real stdout; fd 1 is redirected to stderr

// Writes the pieces of one message with as few write(2) calls as the pipe
// allows, nothing concatenated first.
void write_all(std::vector<iovec> parts) {
  size_t i = 0;
  while (i < parts.size()) {
    ssize_t n = ::writev(proto_fd, parts.data() + i, static_cast<int>(parts.size() - i));
    if (n < 0) {
      if (errno == EINTR) continue;
      return;  // the checker is gone: stdin ends next, and the loop with it
    }
    for (size_t left = static_cast<size_t>(n); i < parts.size() && left >= parts[i].iov_len; ++i)
      left -= parts[i].iov_len, n -= static_cast<ssize_t>(parts[i].iov_len);
    if (i < parts.size()) {
      parts[i].iov_base = static_cast<char*>(parts[i].iov_base) + n;
      parts[i].iov_len -= static_cast<size_t>(n);
    }
  }
}

// A header (a JSON object without its closing brace, written as text) and
// the payload's pieces: `"data": N` and the brace are added here.
void send_line(std::string line, const std::vector<iovec>& payload = {}) {
  size_t n = 0;
  for (auto& p : payload) n += p.iov_len;
  if (n) line += ",\"data\":" + std::to_string(n);
  line += "}\n";
  std::vector<iovec> parts{{line.data(), line.size()}};
  parts.insert(parts.end(), payload.begin(), payload.end());
  write_all(std::move(parts));
}

void send(const json& header) {
  std::string line = header.dump();
  line.pop_back();  // the closing brace, put back by send_line
  send_line(std::move(line));
}

// ---- safetensors ----
struct Blob {  // one tensor of a request payload: its bytes stay in the payload
  std::string dtype;
  std::vector<int64_t> shape;
  uint8_t* bytes;
  size_t nbytes;
};

std::map<std::string, Blob> read_safetensors(std::string& buf) {
  if (buf.size() < 8) throw Fail("safetensors payload shorter than 8 bytes");
  uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | static_cast<uint8_t>(buf[i]);
  if (n > buf.size() - 8) throw Fail("safetensors header length out of range");
  json header = json::parse(buf.substr(8, n));
  std::map<std::string, Blob> out;
  for (auto& [name, t] : header.items()) {
    if (name == "__metadata__") continue;
    uint64_t b = t.at("data_offsets")[0], e = t.at("data_offsets")[1];
    if (b > e || e > buf.size() - 8 - n) throw Fail("bad offsets for " + name);
    auto* p = reinterpret_cast<uint8_t*>(buf.data()) + 8 + n;
    out[name] = {t.at("dtype"), t.at("shape").get<std::vector<int64_t>>(), p + b, e - b};
  }
  return out;
}

// The reply's safetensors: the header written as text, the outputs' bytes
// copied once, back to back (they point into the method's memory, which the
// next call reuses).
struct Writer {
  std::string header;  // "{...}" entries so far, without the braces
  std::string data;
  std::string prefix;  // length + header, built by finish()
  // The value's fields `"key":...,"dtype":...,"shape":[...]`, keys plain ASCII.
  std::string add(const std::string& key, const Tensor& t) {
    const char* code = to_code(t.scalar_type());
    if (!executorch::runtime::is_contiguous_dim_order(t.dim_order().data(), t.dim()))
      throw Fail(key + " is not in contiguous dim order");
    std::string shape = "[";
    for (auto d : t.sizes()) shape += (shape.size() > 1 ? "," : "") + std::to_string(d);
    shape += "]";
    size_t begin = data.size();
    data.append(static_cast<const char*>(t.const_data_ptr()), t.nbytes());
    std::string fields = "\"dtype\":\"" + std::string(code) + "\",\"shape\":" + shape;
    header += (header.empty() ? "\"" : ",\"") + key + "\":{" + fields + ",\"data_offsets\":[" +
              std::to_string(begin) + "," + std::to_string(data.size()) + "]}";
    return "\"key\":\"" + key + "\"," + fields;
  }
  // The payload's pieces (none without tensors); they live as long as this.
  std::vector<iovec> finish() {
    if (header.empty()) return {};
    std::string h = "{" + header + "}";
    h.append((8 - h.size() % 8) % 8, ' ');  // keep the data 8-byte aligned
    prefix.assign(8, '\0');
    for (int i = 0; i < 8; ++i) prefix[i] = static_cast<char>(h.size() >> (8 * i));
    prefix += h;
    return {{prefix.data(), prefix.size()}, {data.data(), data.size()}};
  }
};

// ---- floats: non-finite values travel as strings ----
json float_to_json(double v) {
  if (std::isfinite(v)) return v;
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  uint64_t bits;
  std::memcpy(&bits, &v, 8);
  char s[32];
  std::snprintf(s, sizeof s, "nan:0x%016llx", (unsigned long long)bits);
  return s;
}
// ---- requests: the header's fields read as the parser meets them (SAX),
// no JSON tree built ----
struct Scalar {  // a JSON scalar as it came
  enum Kind { Absent, Int, Unsigned, Float, Bool, String, Null } kind = Absent;
  int64_t i = 0;
  uint64_t u = 0;
  double f = 0;
  bool b = false;
  std::string s;
};
struct InValue {  // one of the request's "inputs"
  std::string type, key, dtype;
  std::vector<int64_t> shape;
  Scalar value;
};
struct Request {
  std::string op, protocol, method;
  Scalar version;
  uint64_t data = 0;
  bool has_inputs = false;
  std::vector<InValue> inputs;
};

// Fills a Request: top-level fields at depth 1, the inputs' fields at depth
// 3, their shapes' dimensions at depth 4; anything else is skipped.
struct RequestSax : nlohmann::json_sax<json> {
  Request& r;
  int depth = 0;
  std::string top, field;  // the current key at depth 1 and in an input
  bool in_inputs = false;
  explicit RequestSax(Request& req) : r(req) {}
  InValue* input() { return in_inputs && depth == 3 && !r.inputs.empty() ? &r.inputs.back() : nullptr; }
  bool scalar(Scalar v) {
    if (depth == 1) {
      if (top == "op" || top == "protocol" || top == "method") {
        if (v.kind != Scalar::String) throw Fail("\"" + top + "\" is not a string");
        (top == "op" ? r.op : top == "protocol" ? r.protocol : r.method) = std::move(v.s);
      } else if (top == "version") {
        r.version = v;
      } else if (top == "data") {
        if (v.kind == Scalar::Unsigned) r.data = v.u;
        else if (v.kind == Scalar::Int && v.i >= 0) r.data = static_cast<uint64_t>(v.i);
        else if (v.kind != Scalar::Null) throw Fail("\"data\" is not a byte count");
      }
    } else if (InValue* in = input()) {
      if (field == "type" || field == "key" || field == "dtype") {
        if (v.kind != Scalar::String) throw Fail("an input's \"" + field + "\" is not a string");
        (field == "type" ? in->type : field == "key" ? in->key : in->dtype) = std::move(v.s);
      } else if (field == "value") {
        in->value = std::move(v);
      }
    } else if (in_inputs && depth == 4 && field == "shape" && !r.inputs.empty()) {
      if (v.kind == Scalar::Unsigned) r.inputs.back().shape.push_back(static_cast<int64_t>(v.u));
      else if (v.kind == Scalar::Int) r.inputs.back().shape.push_back(v.i);
      else throw Fail("a dimension is not an integer");
    }
    return true;
  }
  bool null() override { return scalar({Scalar::Null}); }
  bool boolean(bool b) override { Scalar v{Scalar::Bool}; v.b = b; return scalar(std::move(v)); }
  bool number_integer(json::number_integer_t i) override { Scalar v{Scalar::Int}; v.i = i; return scalar(std::move(v)); }
  bool number_unsigned(json::number_unsigned_t u) override {
    Scalar v;
    if (u <= static_cast<uint64_t>(INT64_MAX)) v.kind = Scalar::Int, v.i = static_cast<int64_t>(u);
    else v.kind = Scalar::Unsigned, v.u = u;
    return scalar(std::move(v));
  }
  bool number_float(json::number_float_t f, const json::string_t&) override { Scalar v{Scalar::Float}; v.f = f; return scalar(std::move(v)); }
  bool string(json::string_t& s) override { Scalar v{Scalar::String}; v.s = std::move(s); return scalar(std::move(v)); }
  bool binary(json::binary_t&) override { return true; }
  bool start_object(std::size_t) override {
    ++depth;
    if (depth == 1) return true;
    if (in_inputs && depth == 3) r.inputs.emplace_back();
    return true;
  }
  bool end_object() override { --depth; return true; }
  bool start_array(std::size_t) override {
    ++depth;
    if (depth == 2 && top == "inputs") in_inputs = r.has_inputs = true;
    return true;
  }
  bool end_array() override {
    if (depth == 2) in_inputs = false;
    --depth;
    return true;
  }
  bool key(json::string_t& k) override {
    if (depth == 1) top = std::move(k);
    else if (in_inputs && depth == 3) field = std::move(k);
    return true;
  }
  bool parse_error(std::size_t at, const std::string&, const nlohmann::detail::exception& e) override {
    throw Fail("the request is not JSON (at byte " + std::to_string(at) + "): " + e.what());
  }
};

Request parse_request(const std::string& line) {
  Request r;
  RequestSax sax(r);
  json::sax_parse(line, &sax);
  if (sax.depth != 0) throw Fail("the request is not one JSON object");
  return r;
}

double to_float(const Scalar& v) {
  switch (v.kind) {
    case Scalar::Float: return v.f;
    case Scalar::Int: return static_cast<double>(v.i);
    case Scalar::Unsigned: return static_cast<double>(v.u);
    case Scalar::String: break;
    default: throw Fail("bad float value");
  }
  const std::string& s = v.s;
  if (s == "inf") return INFINITY;
  if (s == "-inf") return -INFINITY;
  if (s == "nan") return NAN;
  if (s.rfind("nan:0x", 0) == 0) {
    uint64_t bits = std::stoull(s.substr(6), nullptr, 16);
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
  }
  throw Fail("bad float value " + s);
}

// ---- inputs: a tensor over bytes the caller keeps alive until execute() ----
executorch::extension::TensorPtr input_tensor(const std::string& name,
                                              const std::string& dtype,
                                              const std::vector<int64_t>& shape,
                                              uint8_t* bytes, size_t nbytes) {
  ScalarType st = to_scalar_type(dtype);
  size_t numel = 1;
  for (auto d : shape) numel *= d;
  if (numel * elem_size(st) != nbytes)
    throw Fail("tensor " + name + " has " + std::to_string(nbytes) +
               " bytes, shape needs " + std::to_string(numel * elem_size(st)));
  std::vector<executorch::aten::SizesType> sizes(shape.begin(), shape.end());
  return executorch::extension::make_tensor_ptr(sizes, nbytes ? bytes : nullptr, st);
}

// ---- the runner ----
struct Runner {
  std::string model;
  std::vector<std::string> ptds;
  std::unique_ptr<Module> module;  // null after `fresh`: reloaded on demand
  // Replay of a .bpte without a separate program: the program embedded in
  // the bundle, borrowed from libpte's mapping (alive as long as the handle).
  const uint8_t* program = nullptr;
  size_t program_len = 0;

  Module& get() {
    if (!module) {
      if (program)
        module = std::make_unique<Module>(
            std::make_unique<executorch::extension::BufferDataLoader>(program, program_len));
      else
        module = ptds.empty() ? std::make_unique<Module>(model)
                              : std::make_unique<Module>(model, ptds);
      if (auto err = module->load(); err != executorch::runtime::Error::Ok)
        throw Fail("loading " + model + " failed: " + describe(err));
    }
    return *module;
  }

  json hello(const Request& req) {
    if (req.protocol != "pte-runner" || req.version.kind != Scalar::Int || req.version.i != 1)
      throw Fail("unsupported protocol; this runner speaks pte-runner version 1");
    auto names = get().method_names();
    if (!names.ok()) throw Fail("cannot list methods");
    std::vector<std::string> methods(names->begin(), names->end());
    std::sort(methods.begin(), methods.end());
    return {{"ok", true}, {"protocol", "pte-runner"}, {"version", 1},
            {"runner", "executorch-cpp 1.5.1"}, {"methods", methods}};
  }

  // Checks the input count (else the runtime keeps a stale earlier input)
  // and runs the method; the outputs point into the method's memory.
  std::vector<EValue> execute(const std::string& method, const std::vector<EValue>& inputs) {
    auto meta = get().method_meta(method);
    if (!meta.ok()) throw Fail("the program has no method '" + method + "'");
    if (meta->num_inputs() != inputs.size())
      throw Fail(method + " takes " + std::to_string(meta->num_inputs()) +
                 " inputs, the call gives " + std::to_string(inputs.size()));
    auto result = get().execute(method, inputs);
    if (!result.ok())
      throw Fail("executing " + method + " failed: " + describe(result.error()));
    return std::move(*result);
  }

  void call(const Request& req, std::string& payload) {
    const std::string& method = req.method;
    if (method.empty()) throw Fail("the call names no method");
    auto meta = get().method_meta(method);
    if (!meta.ok()) throw Fail("the program has no method '" + method + "'");
    if (meta->num_inputs() != req.inputs.size())  // else stale inputs stay set
      throw Fail(method + " takes " + std::to_string(meta->num_inputs()) +
                 " inputs, the request has " + std::to_string(req.inputs.size()));
    auto blobs = payload.empty() ? std::map<std::string, Blob>{}
                                 : read_safetensors(payload);
    // Everything the inputs point at lives here until execute() returns.
    std::vector<executorch::extension::TensorPtr> tensors;
    std::vector<EValue> inputs;
    for (const InValue& v : req.inputs) {
      const std::string& type = v.type;
      if (type == "tensor") {
        auto it = blobs.find(v.key);
        if (it == blobs.end()) throw Fail("payload lacks tensor " + json(v.key).dump());
        Blob& b = it->second;
        if (b.dtype != v.dtype || b.shape != v.shape)
          throw Fail("tensor " + v.key + ": the payload's dtype/shape differ from the request's");
        // the tensor is the payload's bytes: read once from the pipe, never copied
        tensors.push_back(input_tensor(v.key, v.dtype, v.shape, b.bytes, b.nbytes));
        inputs.emplace_back(tensors.back());
      } else if (type == "int") {
        if (v.value.kind != Scalar::Int) throw Fail("an int input whose value is not one");
        inputs.emplace_back(v.value.i);
      } else if (type == "float") {
        inputs.emplace_back(to_float(v.value));
      } else if (type == "bool") {
        if (v.value.kind != Scalar::Bool) throw Fail("a bool input whose value is not one");
        inputs.emplace_back(v.value.b);
      } else if (type == "none") {
        inputs.emplace_back();
      } else {  // string, tensor_list: Method::set_input takes neither
        throw Fail("input type " + type + " is not supported by this runner");
      }
    }
    auto outs = execute(method, inputs);
    // Copy the outputs out now: they point into the method's memory. The
    // reply is written as text, no JSON tree in between.
    Writer w;
    std::string outputs;
    for (size_t i = 0; i < outs.size(); ++i) {
      const EValue& e = outs[i];
      std::string key = "out." + std::to_string(i);
      outputs += i ? "," : "";
      if (e.isTensor()) {
        outputs += "{\"type\":\"tensor\"," + w.add(key, e.toTensor()) + "}";
      } else if (e.isInt()) {
        outputs += "{\"type\":\"int\",\"value\":" + std::to_string(e.toInt()) + "}";
      } else if (e.isDouble()) {
        outputs += "{\"type\":\"float\",\"value\":" + float_to_json(e.toDouble()).dump() + "}";
      } else if (e.isBool()) {
        outputs += std::string("{\"type\":\"bool\",\"value\":") + (e.toBool() ? "true" : "false") + "}";
      } else if (e.isNone()) {
        outputs += "{\"type\":\"none\"}";
      } else if (e.isString()) {
        outputs += "{\"type\":\"string\",\"value\":" + json(std::string(e.toString())).dump() + "}";
      } else if (e.isTensorList()) {
        std::string items;
        auto list = e.toTensorList();
        for (size_t j = 0; j < list.size(); ++j)
          items += (j ? ",{" : "{") + w.add(key + "." + std::to_string(j), list[j]) + "}";
        outputs += "{\"type\":\"tensor_list\",\"items\":[" + items + "]}";
      } else {
        throw Fail("output " + std::to_string(i) + " has an unsupported EValue tag");
      }
    }
    send_line("{\"ok\":true,\"outputs\":[" + outputs + "]", w.finish());
  }
};

// ---- replay: a package's recorded calls, read with libpte, run here ----
// `pte_runner --replay PACKAGE MODEL`: no checker, no protocol. Each sample
// starts from a freshly loaded program (as `pte samples check` does) and its
// calls run in order on the same state; outputs are compared with the
// call's resolved tolerance by the rule of `pte samples check`.

struct Err : Fail {  // a libpte call failed: the reason is pte_last_error()
  explicit Err(const std::string& what) : Fail(what + ": " + pte_last_error()) {}
};
void ok(PteStatus st, const char* what) {
  if (st != PTE_STATUS_OK) throw Err(what);
}

// The program embedded in a .bpte (BundledProgram field 2, `program`, a
// byte vector), found by walking the flatbuffer; bounds checked throughout.
std::pair<const uint8_t*, size_t> bundled_program(const uint8_t* d, size_t n) {
  auto u32 = [&](size_t at) -> uint32_t {
    if (at > n || n - at < 4) throw Fail("the .bpte is truncated");
    uint32_t v;
    std::memcpy(&v, d + at, 4);
    return v;  // flatbuffers are little-endian, as is every host here
  };
  size_t table = u32(0);
  int32_t back;
  uint32_t raw = u32(table);
  std::memcpy(&back, &raw, 4);
  int64_t vt = static_cast<int64_t>(table) - back;
  if (vt < 0 || static_cast<uint64_t>(vt) + 4 > n) throw Fail("the .bpte's root table is malformed");
  uint16_t vlen, field;
  std::memcpy(&vlen, d + vt, 2);
  const size_t slot = 4 + 2 * 2;  // vtable entry of field 2
  if (vlen < slot + 2 || static_cast<uint64_t>(vt) + slot + 2 > n) throw Fail("the .bpte has no program");
  std::memcpy(&field, d + vt + slot, 2);
  if (field == 0) throw Fail("the .bpte has no program");
  size_t at = table + field;
  size_t vec = at + u32(at);
  size_t len = u32(vec);
  if (len > n - vec - 4) throw Fail("the .bpte's program runs past its end");
  return {d + vec + 4, len};
}

const char* level_name(PteToleranceLevel l) {
  switch (l) {
    case PTE_TOLERANCE_LEVEL_SET: return "set";
    case PTE_TOLERANCE_LEVEL_SAMPLE: return "sample";
    case PTE_TOLERANCE_LEVEL_CALL: return "call";
    default: return "default";
  }
}
const char* kind_name(PteValueKind k) {
  switch (k) {
    case PTE_VALUE_KIND_TENSOR: return "tensor";
    case PTE_VALUE_KIND_INT: return "int";
    case PTE_VALUE_KIND_FLOAT: return "float";
    case PTE_VALUE_KIND_BOOL: return "bool";
    case PTE_VALUE_KIND_STRING: return "string";
    case PTE_VALUE_KIND_NONE: return "none";
    default: return "tensor_list";
  }
}
const char* kind_name(const EValue& e) {
  if (e.isTensor()) return "tensor";
  if (e.isInt()) return "int";
  if (e.isDouble()) return "float";
  if (e.isBool()) return "bool";
  if (e.isString()) return "string";
  if (e.isNone()) return "none";
  if (e.isTensorList()) return "tensor_list";
  return "unsupported value";
}

// The checker's element rule: NaN only matches NaN, an infinity only itself.
bool admits(const PteTolerance& t, double e, double a) {
  if (std::isnan(e) || std::isnan(a)) return std::isnan(e) && std::isnan(a);
  if (std::isinf(e) || std::isinf(a)) return e == a;
  return std::fabs(a - e) <= t.atol + t.rtol * std::fabs(e);
}
double half_to_double(uint16_t h) {
  int exp = (h >> 10) & 0x1f, man = h & 0x3ff;
  double v = exp == 0 ? std::ldexp(man, -24)
             : exp == 31 ? (man ? NAN : INFINITY)
                         : std::ldexp(man | 0x400, exp - 25);
  return (h & 0x8000) ? -v : v;
}
double read_float(const std::string& dtype, const uint8_t* p) {
  if (dtype == "F64") { double v; std::memcpy(&v, p, 8); return v; }
  if (dtype == "F32") { float v; std::memcpy(&v, p, 4); return v; }
  uint16_t h;
  std::memcpy(&h, p, 2);
  if (dtype == "F16") return half_to_double(h);
  uint32_t bits = uint32_t{h} << 16;  // BF16: the top half of an F32
  float v;
  std::memcpy(&v, &bits, 4);
  return v;
}

struct Structural : Fail {  // the outputs' form differs: the wrong method, as the checker sees it
  using Fail::Fail;
};

// An empty string when they match; else what differs (numbers only: a
// different kind, dtype or shape throws Structural).
std::string compare_tensor(const PteTensor& want, const Tensor& got, const PteTolerance& tol,
                           const std::string& where) {
  std::string code = to_code(got.scalar_type());
  if (code != want.dtype)
    throw Structural(where + ": dtype " + want.dtype + " expected, got " + code);
  std::vector<uint64_t> ws(want.shape, want.shape + want.ndim), gs(got.sizes().begin(), got.sizes().end());
  if (ws != gs) throw Structural(where + ": the shape differs from the recorded one");
  if (!executorch::runtime::is_contiguous_dim_order(got.dim_order().data(), got.dim()))
    throw Fail(where + " is not in contiguous dim order");
  if (got.nbytes() != want.nbytes) throw Fail(where + ": byte counts differ");
  const uint8_t* a = static_cast<const uint8_t*>(got.const_data_ptr());
  size_t w = elem_size(got.scalar_type()), n = w ? want.nbytes / w : 0, count = 0;
  bool is_float = code == "F64" || code == "F32" || code == "F16" || code == "BF16";
  size_t worst_i = 0;
  double worst = -1, we = 0, wa = 0;
  for (size_t i = 0; i < n; ++i) {
    if (is_float) {
      double e = read_float(code, want.data + i * w), g = read_float(code, a + i * w);
      if (admits(tol, e, g)) continue;
      double excess = std::isfinite(e) && std::isfinite(g)
                          ? std::fabs(g - e) - (tol.atol + tol.rtol * std::fabs(e)) : INFINITY;
      if (count++ == 0 || excess > worst) worst = excess, worst_i = i, we = e, wa = g;
    } else if (std::memcmp(want.data + i * w, a + i * w, w) != 0) {
      if (count++ == 0) worst_i = i;
    }
  }
  if (!count) return {};
  char buf[256];
  if (is_float)
    std::snprintf(buf, sizeof buf,
                  ": %zu element(s) outside tolerance; worst at index %zu: expected %.9g, got %.9g",
                  count, worst_i, we, wa);
  else
    std::snprintf(buf, sizeof buf, ": %zu element(s) differ; first at index %zu", count, worst_i);
  return where + buf;
}

struct Replay {
  PteHandle* h = nullptr;
  Runner& r;
  size_t passed = 0, failed = 0;
  ~Replay() { pte_close(&h); }

  // One call: empty when it matches, else the first difference.
  std::string run_call(const std::string& method, size_t set, size_t sample, size_t c,
                       const PteCallInfo& info) {
    std::vector<std::vector<uint8_t>> bytes;  // copies: the runtime may write inputs
    bytes.reserve(info.input_count);
    std::vector<executorch::extension::TensorPtr> tensors;
    std::vector<EValue> inputs;
    for (size_t i = 0; i < info.input_count; ++i) {
      PteValue v;
      ok(pte_call_input(h, set, sample, c, i, &v), "reading an input");
      switch (v.kind) {
        case PTE_VALUE_KIND_TENSOR: {
          PteTensor t;
          ok(pte_call_input_tensor(h, set, sample, c, i, 0, &t), "reading an input tensor");
          bytes.emplace_back(t.data, t.data + t.nbytes);
          std::vector<int64_t> shape(t.shape, t.shape + t.ndim);
          tensors.push_back(input_tensor("input " + std::to_string(i), t.dtype, shape, bytes.back().data(),
                                         bytes.back().size()));
          inputs.emplace_back(tensors.back());
          break;
        }
        case PTE_VALUE_KIND_INT: inputs.emplace_back(v.int_value); break;
        case PTE_VALUE_KIND_FLOAT: inputs.emplace_back(v.float_value); break;
        case PTE_VALUE_KIND_BOOL: inputs.emplace_back(v.bool_value); break;
        case PTE_VALUE_KIND_NONE: inputs.emplace_back(); break;
        default:
          throw Fail(std::string("input type ") + kind_name(v.kind) + " is not supported by this runner");
      }
    }
    auto outs = r.execute(method, inputs);
    if (outs.size() != info.output_count)
      throw Structural(std::to_string(info.output_count) + " outputs recorded, the method returned " +
                       std::to_string(outs.size()));
    for (size_t i = 0; i < outs.size(); ++i) {
      PteValue v;
      ok(pte_call_output(h, set, sample, c, i, &v), "reading an expected output");
      const EValue& e = outs[i];
      std::string where = "output " + std::to_string(i);
      if (std::string(kind_name(v.kind)) != kind_name(e))
        throw Structural(where + ": a " + kind_name(v.kind) + " was recorded, the method returned a " + kind_name(e));
      std::string diff;
      switch (v.kind) {
        case PTE_VALUE_KIND_TENSOR: {
          PteTensor t;
          ok(pte_call_output_tensor(h, set, sample, c, i, 0, &t), "reading an output tensor");
          diff = compare_tensor(t, e.toTensor(), info.tolerance, where);
          break;
        }
        case PTE_VALUE_KIND_TENSOR_LIST: {
          auto list = e.toTensorList();
          if (list.size() != v.tensor_count)
            throw Structural(where + ": the list's length differs from the recorded one");
          for (size_t j = 0; j < list.size() && diff.empty(); ++j) {
            PteTensor t;
            ok(pte_call_output_tensor(h, set, sample, c, i, j, &t), "reading an output tensor");
            diff = compare_tensor(t, list[j], info.tolerance, where + " item " + std::to_string(j));
          }
          break;
        }
        case PTE_VALUE_KIND_INT:
          if (e.toInt() != v.int_value) diff = where + ": expected " + std::to_string(v.int_value) + ", got " + std::to_string(e.toInt());
          break;
        case PTE_VALUE_KIND_FLOAT:
          if (!admits(info.tolerance, v.float_value, e.toDouble()))
            diff = where + ": expected " + std::to_string(v.float_value) + ", got " + std::to_string(e.toDouble());
          break;
        case PTE_VALUE_KIND_BOOL:
          if (e.toBool() != v.bool_value) diff = where + ": the bool differs";
          break;
        case PTE_VALUE_KIND_STRING:
          if (std::string(e.toString()) != (v.string_value ? v.string_value : "")) diff = where + ": the string differs";
          break;
        default: break;
      }
      if (!diff.empty()) return diff;  // the first differing output names the call
    }
    return {};
  }

  // 0: every call matched; 1: some did not; 2: the replay could not go on.
  int run() {
    size_t sets = 0;
    ok(pte_sample_set_count(h, &sets), "reading the sample sets");
    for (size_t s = 0; s < sets; ++s) {
      PteSampleSetInfo si;
      ok(pte_sample_set(h, s, &si), "reading a sample set");
      for (size_t m = 0; m < si.sample_count; ++m) {
        PteSampleInfo mi;
        ok(pte_sample(h, s, m, &mi), "reading a sample");
        r.module.reset();  // every sample starts from the program's initial state
        for (size_t c = 0; c < mi.call_count; ++c) {
          PteCallInfo ci;
          ok(pte_call(h, s, m, c, &ci), "reading a call");
          char tol[96];
          std::snprintf(tol, sizeof tol, "atol %g rtol %g, from %s", ci.tolerance.atol,
                        ci.tolerance.rtol, level_name(ci.tolerance_level));
          std::string name = std::string(si.method) + "/" + si.name + " sample " + std::to_string(m) +
                             (mi.name ? std::string(" (") + mi.name + ")" : "") + " call " + std::to_string(c);
          log_errors.clear();
          try {
            std::string diff = run_call(si.method, s, m, c, ci);
            if (diff.empty()) { ++passed; std::printf("ok     %s (%s)\n", name.c_str(), tol); }
            else { ++failed; std::printf("FAIL   %s: %s (%s)\n", name.c_str(), diff.c_str(), tol); }
          } catch (const std::exception& e) {
            // as the checker: a runner that cannot run the recorded call ends the replay
            std::printf("ERROR  %s: %s\n", name.c_str(), e.what());
            std::printf("%zu calls matched, %zu did not; stopped at an error\n", passed, failed);
            return 2;
          }
        }
      }
    }
    std::printf("%zu calls: %zu matched, %zu did not\n", passed + failed, passed, failed);
    return failed ? 1 : 0;
  }
};

int replay(Runner& r, const std::string& package) {
  Replay p{nullptr, r};
  try {
    ok(pte_open(package.c_str(), &p.h), ("opening " + package).c_str());
    PteKind kind;
    ok(pte_kind(p.h, &kind), "reading the package's kind");
    if (r.model.empty() || r.model == package) {
      if (kind != PTE_KIND_BPTE) throw Fail("a program is needed beside " + package + " (only a .bpte holds one)");
      if (!r.ptds.empty()) throw Fail("--ptd needs the program as a file beside the bundle");
      const uint8_t* d;
      size_t n;
      ok(pte_bytes(p.h, &d, &n), "reading the bundle");
      std::tie(r.program, r.program_len) = bundled_program(d, n);
      r.model = package;
    }
    return p.run();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
}

}  // namespace

int main(int argc, char** argv) {
  Runner r;
  std::string package;  // --replay: no protocol, the package's calls are run here
  bool usage = argc < 2;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--ptd" && i + 1 < argc) r.ptds.push_back(argv[++i]);
    else if (a == "--replay" && i + 1 < argc && package.empty()) package = argv[++i];
    else if (r.model.empty() && a[0] != '-') r.model = a;
    else usage = true;
  }
  if (package.empty() && r.model.empty()) usage = true;
  if (usage) {
    std::cerr << "usage: pte_runner MODEL.pte [--ptd DATA.ptd]...\n"
                 "       pte_runner --replay PACKAGE.ptn|BUNDLE.bpte [MODEL.pte] [--ptd DATA.ptd]...\n";
    return 2;
  }
  if (package.empty()) {
    // stdout belongs to the protocol: keep it for ourselves and send fd 1
    // (where anything else might print) to stderr.
    proto_fd = dup(1);
    dup2(2, 1);
  }
  executorch::runtime::register_pal(
      executorch::runtime::PalImpl::create(log_hook, __FILE__));
  executorch::runtime::runtime_init();
  if (!package.empty()) return replay(r, package);

  std::string line;
  while (std::getline(std::cin, line)) {
    std::string payload;
    bool framed = false;  // header and payload read: the next message is in sync
    log_errors.clear();
    try {
      Request req = parse_request(line);
      if (size_t n = req.data) {
        payload.resize(n);
        if (!std::cin.read(payload.data(), n)) throw Fail("stdin ended inside a payload");
      }
      framed = true;
      const std::string& op = req.op;
      if (op == "hello") send(r.hello(req));
      else if (op == "fresh") { r.module.reset(); send({{"ok", true}}); }
      else if (op == "call") r.call(req, payload);
      else if (op == "bye") { send({{"ok", true}}); return 0; }
      else throw Fail("unknown op '" + op + "'");
    } catch (const std::exception& e) {
      send({{"ok", false}, {"error", e.what()}});
      if (!framed) return 1;  // where the next message starts is unknown
    }
  }
  return 0;
}
