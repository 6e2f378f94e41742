// libFuzzer harness: the stock ExecuTorch runtime (libexecutorch.so from the
// executorch wheel, not instrumented) loading the input with
// Program::load (full internal-consistency verification) and every method
// with load_method, as a runner would. Only this file is instrumented, so
// coverage counts the paths of this driver; the runtime's own
// behaviour shows up as crashes, aborts and timeouts.
// Built by scripts/fuzz/build-harnesses.sh.
#include <executorch/extension/data_loader/buffer_data_loader.h>
#include <executorch/runtime/core/hierarchical_allocator.h>
#include <executorch/runtime/core/memory_allocator.h>
#include <executorch/runtime/executor/memory_manager.h>
#include <executorch/runtime/executor/method.h>
#include <executorch/runtime/executor/program.h>
#include <executorch/runtime/platform/platform.h>
#include <executorch/runtime/platform/runtime.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

using namespace executorch::runtime;
using executorch::extension::BufferDataLoader;

// The runtime logs every rejection; a fuzzer would spend its time printing.
// libexecutorch.so declares this weak, so the executable's copy wins.
extern "C" void et_pal_emit_log_message(et_timestamp_t, et_pal_log_level_t, const char*, const char*, size_t,
                                        const char*, size_t) {}

namespace {
constexpr size_t kArena = 32u << 20;
constexpr int64_t kPlannedCap = 64 << 20;
uint8_t* arena() {
  static std::unique_ptr<uint8_t[]> raw(new uint8_t[kArena + 16]);
  return reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(raw.get()) + 15) & ~uintptr_t(15));
}
}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  runtime_init();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The runtime expects an aligned program (it reads the flatbuffer in place).
  std::unique_ptr<uint8_t[], decltype(&std::free)> copy(
      static_cast<uint8_t*>(std::aligned_alloc(64, (size + 63) & ~size_t(63))), &std::free);
  if (size) std::memcpy(copy.get(), data, size);
  BufferDataLoader loader(copy.get(), size);
  auto program = Program::load(&loader, Program::Verification::InternalConsistency);
  if (!program.ok()) return 0;
  size_t methods = program->num_methods();
  for (size_t i = 0; i < methods && i < 8; ++i) {
    auto name = program->get_method_name(i);
    if (!name.ok()) continue;
    auto meta = program->method_meta(name.get());
    if (!meta.ok()) continue;
    std::vector<std::vector<uint8_t>> buffers;
    std::vector<Span<uint8_t>> spans;
    int64_t total = 0;
    bool fits = true;
    for (size_t b = 0; b < meta->num_memory_planned_buffers(); ++b) {
      auto s = meta->memory_planned_buffer_size(b);
      // Compared before adding: a size near INT64_MAX must not wrap the sum.
      if (!s.ok() || s.get() < 0 || s.get() > kPlannedCap - total) { fits = false; break; }
      total += s.get();
      buffers.emplace_back(static_cast<size_t>(s.get()));
    }
    if (!fits) continue;
    for (auto& b : buffers) spans.emplace_back(b.data(), b.size());
    MemoryAllocator method_allocator(kArena, arena());
    HierarchicalAllocator planned({spans.data(), spans.size()});
    MemoryManager memory_manager(&method_allocator, &planned);
    auto method = program->load_method(name.get(), &memory_manager);
    (void)method;
  }
  return 0;
}
