/*
 * pte_fuzz.h: the structure-aware mutator of the pte-rs project for fuzzing
 * parsers of ExecuTorch files (.pte, .ptd, .bpte, .ptn) with libFuzzer.
 *
 * Link your libFuzzer harness with libpte_fuzz.a (pkg-config: pte-fuzz) and
 * libFuzzer calls these two functions instead of its own byte mutator. The
 * harness does not call them; it only has to link them in. libFuzzer refers
 * to them weakly, which does not pull them out of a static archive: pass
 *   -Wl,-u,LLVMFuzzerCustomMutator -Wl,-u,LLVMFuzzerCustomCrossOver
 * before the library (pkg-config --libs pte-fuzz does).
 *
 * Both are deterministic for a given input and seed, never write past the
 * size limit, and never unwind into the caller.
 * See docs/fuzzing-other-parsers.md.
 */
#ifndef PTE_FUZZ_H
#define PTE_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Mutates Data[0..Size) in place into at most MaxSize bytes; returns the new
 * size. Data must have room for MaxSize bytes. */
size_t LLVMFuzzerCustomMutator(uint8_t *Data, size_t Size, size_t MaxSize, unsigned int Seed);

/* Writes a child of Data1[0..Size1) and Data2[0..Size2) to Out, at most
 * MaxOutSize bytes; returns its size. */
size_t LLVMFuzzerCustomCrossOver(const uint8_t *Data1, size_t Size1, const uint8_t *Data2, size_t Size2,
                                 uint8_t *Out, size_t MaxOutSize, unsigned int Seed);

#ifdef __cplusplus
}
#endif

#endif /* PTE_FUZZ_H */
