// segments: a C++ RAII wrapper over libpte, listing a program's segments,
// constants, named data and delegate blobs (pointers into the mapping,
// never copied), or a data file's segments and entries.
//
//   segments FILE
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>

#include <pte.h>

namespace pte {

struct Error : std::runtime_error {
  PteStatus status;
  Error(PteStatus s, const std::string &what) : std::runtime_error(what + ": " + pte_last_error()), status(s) {}
};

inline void check(PteStatus s, const char *what) {
  if (s != PTE_STATUS_OK) throw Error(s, what);
}

// Owns one handle; movable, not copyable. Every span it gives lives as long as it.
class File {
 public:
  explicit File(const std::string &path) { check(pte_open(path.c_str(), &h_), path.c_str()); }
  File(File &&o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
  File &operator=(File &&o) noexcept {
    std::swap(h_, o.h_);
    return *this;
  }
  File(const File &) = delete;
  File &operator=(const File &) = delete;
  ~File() { pte_close(&h_); }

  PteKind kind() const {
    PteKind k;
    check(pte_kind(h_, &k), "kind");
    return k;
  }
  // Calls fn(index, item) for every item of a counted table.
  template <typename Item, typename Fn>
  void each(PteStatus (*count)(const PteHandle *, size_t *), PteStatus (*get)(const PteHandle *, size_t, Item *),
            Fn fn) const {
    size_t n = 0;
    if (count(h_, &n) != PTE_STATUS_OK) return;  // a table this kind has not
    for (size_t i = 0; i < n; i++) {
      Item item;
      check(get(h_, i, &item), "item");
      fn(i, item);
    }
  }

 private:
  PteHandle *h_ = nullptr;
};

}  // namespace pte

static uint32_t checksum(const uint8_t *data, size_t len) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < len; i++) h = (h ^ data[i]) * 16777619u;
  return h;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: segments FILE\n");
    return 2;
  }
  try {
    pte::File f(argv[1]);
    std::printf("%s: %s\n", argv[1], pte_kind_name(f.kind()));
    f.each<PteBlob>(pte_segment_count, pte_segment, [](size_t i, const PteBlob &b) {
      std::printf("segment %zu: %zu bytes at %llu, fnv %08x\n", i, b.len, (unsigned long long)b.offset,
                  checksum(b.data, b.len));
    });
    f.each<PteBlob>(pte_constant_count, pte_constant, [](size_t i, const PteBlob &b) {
      std::printf("constant %zu: %zu bytes at %llu, fnv %08x\n", i, b.len, (unsigned long long)b.offset,
                  checksum(b.data, b.len));
    });
    f.each<PteNamedData>(pte_named_data_count, pte_named_data, [](size_t i, const PteNamedData &d) {
      std::printf("named %zu \"%s\": %zu bytes in segment %u, fnv %08x\n", i, d.key, d.len, d.segment,
                  checksum(d.data, d.len));
    });
    f.each<PteDelegate>(pte_delegate_count, pte_delegate, [](size_t i, const PteDelegate &d) {
      std::printf("delegate %zu \"%s\" (plan %zu #%zu, %s): %zu bytes, fnv %08x\n", i, d.id, d.plan, d.index,
                  d.inline_data ? "inline" : "segment", d.len, checksum(d.data, d.len));
    });
  } catch (const pte::Error &e) {
    std::fprintf(stderr, "segments: %s\n", e.what());
    return 2;
  }
  return 0;
}
