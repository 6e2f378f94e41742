/*
 * samples: list the recorded calls of a .ptn package (or a .bpte's test
 * cases) as a C++ or C runner would replay them: every set, sample and
 * call, its values and tensors (zero-copy where stored), and the
 * tolerance each call's outputs are compared with.
 *
 *   samples FILE
 */
#include <stdio.h>

#include <pte.h>

static const char *const LEVELS[] = {"default", "set", "sample", "call"};

static void value(const PteHandle *h, size_t set, size_t sample, size_t call, size_t i, int output) {
  PteValue v;
  PteStatus s = output ? pte_call_output(h, set, sample, call, i, &v) : pte_call_input(h, set, sample, call, i, &v);
  if (s != PTE_STATUS_OK) return;
  printf("      %s %zu: ", output ? "output" : "input", i);
  switch (v.kind) {
    case PTE_VALUE_KIND_INT: printf("int %lld\n", (long long)v.int_value); return;
    case PTE_VALUE_KIND_FLOAT: printf("float %g\n", v.float_value); return;
    case PTE_VALUE_KIND_BOOL: printf("bool %s\n", v.bool_value ? "true" : "false"); return;
    case PTE_VALUE_KIND_STRING: printf("string \"%s\"\n", v.string_value); return;
    case PTE_VALUE_KIND_NONE: printf("none\n"); return;
    default: break;
  }
  printf("%zu tensor(s)\n", v.tensor_count);
  for (size_t t = 0; t < v.tensor_count; t++) {
    PteTensor x;
    s = output ? pte_call_output_tensor(h, set, sample, call, i, t, &x)
               : pte_call_input_tensor(h, set, sample, call, i, t, &x);
    if (s != PTE_STATUS_OK) continue;
    unsigned sum = 0;
    for (size_t b = 0; b < x.nbytes; b++) sum += x.data[b];
    printf("        %s [", x.dtype);
    for (size_t d = 0; d < x.ndim; d++) printf(d ? ", %llu" : "%llu", (unsigned long long)x.shape[d]);
    printf("] %zu bytes%s, byte sum %u\n", x.nbytes, x.in_file ? " (in the file)" : "", sum);
  }
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: samples FILE\n");
    return 2;
  }
  PteHandle *h = NULL;
  if (pte_open(argv[1], &h) != PTE_STATUS_OK) {
    fprintf(stderr, "samples: %s\n", pte_last_error());
    return 2;
  }
  size_t sets = 0;
  if (pte_sample_set_count(h, &sets) != PTE_STATUS_OK) {
    fprintf(stderr, "samples: %s\n", pte_last_error());
    pte_close(&h);
    return 2;
  }
  printf("%s: %zu sample set(s)\n", argv[1], sets);
  for (size_t i = 0; i < sets; i++) {
    PteSampleSetInfo set;
    pte_sample_set(h, i, &set);
    printf("%s/%s: %zu sample(s)\n", set.method, set.name, set.sample_count);
    for (size_t j = 0; j < set.sample_count; j++) {
      PteSampleInfo sample;
      pte_sample(h, i, j, &sample);
      printf("  sample %zu%s%s: %zu call(s)\n", j, sample.name ? " " : "", sample.name ? sample.name : "",
             sample.call_count);
      for (size_t k = 0; k < sample.call_count; k++) {
        PteCallInfo call;
        pte_call(h, i, j, k, &call);
        printf("    call %zu: atol %g rtol %g (from the %s)\n", k, call.tolerance.atol, call.tolerance.rtol,
               LEVELS[call.tolerance_level]);
        for (size_t v = 0; v < call.input_count; v++) value(h, i, j, k, v, 0);
        for (size_t v = 0; v < call.output_count; v++) value(h, i, j, k, v, 1);
      }
    }
  }
  pte_close(&h);
  return 0;
}
