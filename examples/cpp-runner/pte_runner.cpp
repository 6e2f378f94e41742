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

#include <unistd.h>

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
FILE* proto_out = nullptr;  // the real stdout; fd 1 is redirected to stderr

void send(json header, const std::string& payload = {}) {
  if (!payload.empty()) header["data"] = payload.size();
  std::string line = header.dump() + "\n";
  fwrite(line.data(), 1, line.size(), proto_out);
  fwrite(payload.data(), 1, payload.size(), proto_out);
  fflush(proto_out);
}

// ---- safetensors ----
struct Blob {  // one tensor's bytes as read from a request payload
  std::string dtype;
  std::vector<int64_t> shape;
  std::vector<uint8_t> bytes;
};

std::map<std::string, Blob> read_safetensors(const std::string& buf) {
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
    const char* p = buf.data() + 8 + n;
    out[name] = {t.at("dtype"), t.at("shape").get<std::vector<int64_t>>(),
                 std::vector<uint8_t>(p + b, p + e)};
  }
  return out;
}

struct Writer {  // builds the reply's safetensors, tensors back to back
  json header = json::object();
  std::string data;
  json add(const std::string& key, const Tensor& t) {
    const char* code = to_code(t.scalar_type());
    if (!executorch::runtime::is_contiguous_dim_order(t.dim_order().data(), t.dim()))
      throw Fail(key + " is not in contiguous dim order");
    std::vector<int64_t> shape(t.sizes().begin(), t.sizes().end());
    size_t begin = data.size();
    data.append(static_cast<const char*>(t.const_data_ptr()), t.nbytes());
    header[key] = {{"dtype", code},
                   {"shape", shape},
                   {"data_offsets", {begin, data.size()}}};
    return {{"key", key}, {"dtype", code}, {"shape", shape}};
  }
  std::string finish() {
    if (header.empty()) return {};
    std::string h = header.dump();
    h.append((8 - h.size() % 8) % 8, ' ');  // keep the data 8-byte aligned
    std::string out(8, '\0');
    for (int i = 0; i < 8; ++i) out[i] = static_cast<char>(h.size() >> (8 * i));
    return out + h + data;
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
double json_to_float(const json& j) {
  if (j.is_number()) return j.get<double>();
  std::string s = j.get<std::string>();
  if (s == "inf") return INFINITY;
  if (s == "-inf") return -INFINITY;
  if (s == "nan") return NAN;
  if (s.rfind("nan:0x", 0) == 0) {
    uint64_t bits = std::stoull(s.substr(6), nullptr, 16);
    double v;
    std::memcpy(&v, &bits, 8);
    return v;
  }
  throw Fail("bad float value " + s);
}

// ---- inputs: a tensor over bytes the caller keeps alive until execute() ----
executorch::extension::TensorPtr input_tensor(const std::string& name,
                                              const std::string& dtype,
                                              const std::vector<int64_t>& shape,
                                              std::vector<uint8_t>& bytes) {
  ScalarType st = to_scalar_type(dtype);
  size_t numel = 1;
  for (auto d : shape) numel *= d;
  if (numel * elem_size(st) != bytes.size())
    throw Fail("tensor " + name + " has " + std::to_string(bytes.size()) +
               " bytes, shape needs " + std::to_string(numel * elem_size(st)));
  std::vector<executorch::aten::SizesType> sizes(shape.begin(), shape.end());
  return executorch::extension::make_tensor_ptr(
      sizes, bytes.empty() ? nullptr : bytes.data(), st);
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

  json hello(const json& req) {
    if (req.value("protocol", "") != "pte-runner" || req.value("version", 0) != 1)
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

  void call(const json& req, const std::string& payload) {
    std::string method = req.at("method");
    auto meta = get().method_meta(method);
    if (!meta.ok()) throw Fail("the program has no method '" + method + "'");
    if (meta->num_inputs() != req.at("inputs").size())  // else stale inputs stay set
      throw Fail(method + " takes " + std::to_string(meta->num_inputs()) +
                 " inputs, the request has " + std::to_string(req["inputs"].size()));
    auto blobs = payload.empty() ? std::map<std::string, Blob>{}
                                 : read_safetensors(payload);
    // Everything the inputs point at lives here until execute() returns.
    std::vector<executorch::extension::TensorPtr> tensors;
    std::vector<EValue> inputs;
    for (auto& v : req.at("inputs")) {
      std::string type = v.at("type");
      if (type == "tensor") {
        auto it = blobs.find(v.at("key"));
        if (it == blobs.end()) throw Fail("payload lacks tensor " + v["key"].dump());
        Blob& b = it->second;
        auto shape = v.at("shape").get<std::vector<int64_t>>();
        if (b.dtype != v["dtype"] || b.shape != shape)
          throw Fail("tensor " + v["key"].get<std::string>() +
                     ": the payload's dtype/shape differ from the request's");
        tensors.push_back(input_tensor(v["key"].get<std::string>(), v.at("dtype"), shape, b.bytes));
        inputs.emplace_back(tensors.back());
      } else if (type == "int") {
        inputs.emplace_back(v.at("value").get<int64_t>());
      } else if (type == "float") {
        inputs.emplace_back(json_to_float(v.at("value")));
      } else if (type == "bool") {
        inputs.emplace_back(v.at("value").get<bool>());
      } else if (type == "none") {
        inputs.emplace_back();
      } else {  // string, tensor_list: Method::set_input takes neither
        throw Fail("input type " + type + " is not supported by this runner");
      }
    }
    auto outs = execute(method, inputs);
    // Copy the outputs out now: they point into the method's memory.
    Writer w;
    json outputs = json::array();
    for (size_t i = 0; i < outs.size(); ++i) {
      const EValue& e = outs[i];
      std::string key = "out." + std::to_string(i);
      if (e.isTensor()) {
        json t = w.add(key, e.toTensor());
        t["type"] = "tensor";
        outputs.push_back(t);
      } else if (e.isInt()) {
        outputs.push_back({{"type", "int"}, {"value", e.toInt()}});
      } else if (e.isDouble()) {
        outputs.push_back({{"type", "float"}, {"value", float_to_json(e.toDouble())}});
      } else if (e.isBool()) {
        outputs.push_back({{"type", "bool"}, {"value", e.toBool()}});
      } else if (e.isNone()) {
        outputs.push_back({{"type", "none"}});
      } else if (e.isString()) {
        outputs.push_back({{"type", "string"}, {"value", std::string(e.toString())}});
      } else if (e.isTensorList()) {
        json items = json::array();
        auto list = e.toTensorList();
        for (size_t j = 0; j < list.size(); ++j)
          items.push_back(w.add(key + "." + std::to_string(j), list[j]));
        outputs.push_back({{"type", "tensor_list"}, {"items", items}});
      } else {
        throw Fail("output " + std::to_string(i) + " has an unsupported EValue tag");
      }
    }
    send({{"ok", true}, {"outputs", outputs}}, w.finish());
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
          tensors.push_back(input_tensor("input " + std::to_string(i), t.dtype, shape, bytes.back()));
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
          std::fflush(stdout);
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
    proto_out = fdopen(dup(1), "wb");
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
      json req = json::parse(line);
      if (size_t n = req.value("data", size_t{0})) {
        payload.resize(n);
        if (!std::cin.read(payload.data(), n)) throw Fail("stdin ended inside a payload");
      }
      framed = true;
      std::string op = req.value("op", "");
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
