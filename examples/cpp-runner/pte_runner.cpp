// pte_runner: the "pte-runner" protocol, version 1, over the stock ExecuTorch
// C++ runtime (extension::Module). The checker (`pte samples check ... -- CMD`)
// starts this program, writes requests to its stdin and reads replies from its
// stdout. Each message is one JSON line, optionally followed by `data` bytes of
// safetensors holding the tensors the message refers to.
//
// usage: pte_runner MODEL.pte [--ptd DATA.ptd]...
#include <executorch/extension/module/module.h>
#include <executorch/extension/tensor/tensor.h>
#include <executorch/runtime/core/exec_aten/util/dim_order_util.h>
#include <executorch/runtime/platform/runtime.h>
#include <nlohmann/json.hpp>

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

// ---- the runner ----
struct Runner {
  std::string model;
  std::vector<std::string> ptds;
  std::unique_ptr<Module> module;  // null after `fresh`: reloaded on demand

  Module& get() {
    if (!module) {
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
        ScalarType st = to_scalar_type(v.at("dtype"));
        auto shape = v.at("shape").get<std::vector<int64_t>>();
        if (b.dtype != v["dtype"] || b.shape != shape)
          throw Fail("tensor " + v["key"].get<std::string>() +
                     ": the payload's dtype/shape differ from the request's");
        size_t numel = 1;
        for (auto d : shape) numel *= d;
        if (numel * elem_size(st) != b.bytes.size())
          throw Fail("tensor " + v["key"].get<std::string>() + " has " +
                     std::to_string(b.bytes.size()) + " bytes, shape needs " +
                     std::to_string(numel * elem_size(st)));
        std::vector<executorch::aten::SizesType> sizes(shape.begin(), shape.end());
        tensors.push_back(executorch::extension::make_tensor_ptr(
            sizes, b.bytes.empty() ? nullptr : b.bytes.data(), st));
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
    auto result = get().execute(method, inputs);
    if (!result.ok())
      throw Fail("executing " + method + " failed: " + describe(result.error()));
    // Copy the outputs out now: they point into the method's memory.
    Writer w;
    json outputs = json::array();
    for (size_t i = 0; i < result->size(); ++i) {
      const EValue& e = (*result)[i];
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

}  // namespace

int main(int argc, char** argv) {
  // stdout belongs to the protocol: keep it for ourselves and send fd 1 (where
  // anything else might print) to stderr.
  proto_out = fdopen(dup(1), "wb");
  dup2(2, 1);

  Runner r;
  bool usage = argc < 2;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--ptd" && i + 1 < argc) r.ptds.push_back(argv[++i]);
    else if (r.model.empty() && a[0] != '-') r.model = a;
    else usage = true;
  }
  if (usage) {
    std::cerr << "usage: pte_runner MODEL.pte [--ptd DATA.ptd]...\n";
    return 2;
  }
  executorch::runtime::register_pal(
      executorch::runtime::PalImpl::create(log_hook, __FILE__));
  executorch::runtime::runtime_init();

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
