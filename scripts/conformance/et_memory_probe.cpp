// What the stock ExecuTorch runtime says about a program's memory: for each
// method, the memory-planned buffer sizes MethodMeta reports, and the bytes
// Method::load takes from a bump method allocator (no temp allocator given,
// as the executor_runner example sets it up). Built and run by et-memory.sh.
//
//   et_memory_probe PROGRAM.pte [DATA.ptd]   one JSON object per method
//   et_memory_probe --sizes                  sizeof the runtime's records
#include <executorch/extension/data_loader/file_data_loader.h>
#include <executorch/extension/flat_tensor/flat_tensor_data_map.h>
#include <executorch/runtime/backend/interface.h>
#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/core/freeable_buffer.h>
#include <executorch/runtime/core/hierarchical_allocator.h>
#include <executorch/runtime/core/memory_allocator.h>
#include <executorch/runtime/executor/memory_manager.h>
#include <executorch/runtime/executor/method.h>
#include <executorch/runtime/executor/platform_memory_allocator.h>
#include <executorch/runtime/executor/program.h>
#include <executorch/runtime/kernel/operator_registry.h>
#include <executorch/runtime/platform/runtime.h>

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

using namespace executorch::runtime;
using executorch::extension::FileDataLoader;
using executorch::extension::FlatTensorDataMap;

static void print_sizes() {
  std::printf(
      "{\"EValue\": %zu, \"TensorImpl\": %zu, \"Tensor\": %zu, \"optional_Tensor\": %zu, "
      "\"BoxedEvalueList\": %zu, \"ArrayRef\": %zu, \"FreeableBuffer\": %zu, \"CompileSpec\": %zu, "
      "\"InstructionArgs\": %zu, \"OpFunction\": %zu, \"TensorMeta\": %zu, "
      "\"PlatformMemoryAllocator\": %zu, \"SizesType\": %zu, \"DimOrderType\": %zu, \"StridesType\": %zu}\n",
      sizeof(EValue), sizeof(executorch::aten::TensorImpl), sizeof(executorch::aten::Tensor),
      sizeof(std::optional<executorch::aten::Tensor>), sizeof(BoxedEvalueList<int64_t>),
      sizeof(executorch::aten::ArrayRef<bool>), sizeof(FreeableBuffer), sizeof(CompileSpec),
      sizeof(Span<EValue*>), sizeof(OpFunction), sizeof(TensorMeta),
      sizeof(internal::PlatformMemoryAllocator), sizeof(executorch::aten::SizesType),
      sizeof(executorch::aten::DimOrderType), sizeof(executorch::aten::StridesType));
}

int main(int argc, char** argv) {
  runtime_init();
  if (argc == 2 && std::strcmp(argv[1], "--sizes") == 0) {
    print_sizes();
    return 0;
  }
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: et_memory_probe PROGRAM.pte [DATA.ptd] | --sizes\n");
    return 2;
  }
  auto loader = FileDataLoader::from(argv[1]);
  if (!loader.ok()) {
    std::fprintf(stderr, "cannot open %s\n", argv[1]);
    return 2;
  }
  auto program = Program::load(&loader.get(), Program::Verification::InternalConsistency);
  if (!program.ok()) {
    std::printf("{\"error\": \"Program::load 0x%" PRIx32 "\"}\n", static_cast<uint32_t>(program.error()));
    return 1;
  }
  std::optional<FileDataLoader> data_loader;
  std::optional<FlatTensorDataMap> data_map;
  if (argc == 3) {
    auto l = FileDataLoader::from(argv[2]);
    if (!l.ok()) {
      std::fprintf(stderr, "cannot open %s\n", argv[2]);
      return 2;
    }
    data_loader.emplace(std::move(l.get()));
    auto m = FlatTensorDataMap::load(&*data_loader);
    if (!m.ok()) {
      std::fprintf(stderr, "cannot read %s\n", argv[2]);
      return 2;
    }
    data_map.emplace(std::move(m.get()));
  }
  for (size_t i = 0; i < program->num_methods(); ++i) {
    const char* name = program->get_method_name(i).get();
    auto meta = program->method_meta(name);
    if (!meta.ok()) {
      std::printf("{\"method\": \"%s\", \"error\": \"method_meta 0x%" PRIx32 "\"}\n", name,
                  static_cast<uint32_t>(meta.error()));
      continue;
    }
    std::printf("{\"method\": \"%s\", \"buffers\": [", name);
    std::vector<std::vector<uint8_t>> buffers;
    std::vector<Span<uint8_t>> spans;
    for (size_t b = 0; b < meta->num_memory_planned_buffers(); ++b) {
      int64_t size = meta->memory_planned_buffer_size(b).get();
      std::printf("%s%" PRId64, b ? ", " : "", size);
      buffers.emplace_back(static_cast<size_t>(size));
    }
    for (auto& b : buffers) spans.emplace_back(b.data(), b.size());
    // 64 MiB of method allocator, 16-aligned like a static arena
    constexpr size_t kArena = 64u << 20;
    std::unique_ptr<uint8_t[]> raw(new uint8_t[kArena + 16]);
    uint8_t* base = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(raw.get()) + 15) & ~uintptr_t(15));
    MemoryAllocator method_allocator(kArena, base);
    HierarchicalAllocator planned({spans.data(), spans.size()});
    MemoryManager memory_manager(&method_allocator, &planned);
    auto method = program->load_method(name, &memory_manager, nullptr, data_map ? &*data_map : nullptr);
    if (method.ok()) {
      std::printf("], \"method_allocator_used\": %zu}\n", method_allocator.used_size());
    } else {
      std::printf("], \"load_error\": \"0x%" PRIx32 "\"}\n", static_cast<uint32_t>(method.error()));
    }
  }
  return 0;
}
