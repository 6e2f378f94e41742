/*
 * inspect: open a file, print its kind, its verdict (the findings one per
 * line on stderr, `pte verify --json`'s document on stdout) and
 * `pte info --json`'s summary.
 *
 *   inspect FILE [verdict|summary|size|memory|ops|dump] [DATA.ptd]...
 *
 * With a second argument only that JSON text is printed (what the CI
 * compares with the pte command); `.ptd` files after it are linked to the
 * program when verifying. Exit 0 valid, 1 invalid, 2 error.
 */
#include <stdio.h>
#include <string.h>

#include <pte.h>

static int fail(const char *what) {
  fprintf(stderr, "inspect: %s: %s (status %d)\n", what, pte_last_error(), (int)pte_last_status());
  return 2;
}

/* Prints one JSON text from `make` and frees it. */
static int print_json(PteStatus (*make)(const PteHandle *, char **), const PteHandle *h, const char *what) {
  char *json = NULL;
  if (make(h, &json) != PTE_STATUS_OK) return fail(what);
  puts(json);
  pte_string_free(&json);
  return 0;
}

/* `pte memory --json` of every method. */
static PteStatus memory_json(const PteHandle *h, char **out) { return pte_memory_json(h, NULL, out); }

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: inspect FILE [verdict|summary|size|memory|ops|dump] [DATA.ptd]...\n");
    return 2;
  }
  if (pte_abi_version() != PTE_ABI_VERSION) {
    fprintf(stderr, "inspect: libpte ABI %u, built against %u\n", pte_abi_version(), PTE_ABI_VERSION);
    return 2;
  }
  const char *only = argc > 2 ? argv[2] : NULL;
  PteHandle *h = NULL;
  if (pte_open(argv[1], &h) != PTE_STATUS_OK) return fail(argv[1]);

  PteKind kind;
  pte_kind(h, &kind);
  int rc = 0;
  /* the data files, each its own handle */
  size_t ndata = argc > 3 ? (size_t)(argc - 3) : 0;
  PteHandle *data[16] = {NULL};
  if (ndata > 16) ndata = 16;
  for (size_t i = 0; i < ndata; i++) {
    if (pte_open(argv[3 + i], &data[i]) != PTE_STATUS_OK) {
      rc = fail(argv[3 + i]);
      for (size_t j = 0; j < i; j++) pte_close(&data[j]);
      pte_close(&h);
      return rc;
    }
  }
  char *json = NULL;
  if (only && strcmp(only, "summary") == 0) {
    rc = print_json(pte_summary_json, h, "summary");
  } else if (only && strcmp(only, "size") == 0) {
    rc = print_json(pte_size_json, h, "size");
  } else if (only && strcmp(only, "memory") == 0) {
    rc = print_json(memory_json, h, "memory");
  } else if (only && strcmp(only, "ops") == 0) {
    rc = print_json(pte_ops_json, h, "ops");
  } else if (only && strcmp(only, "dump") == 0) {
    rc = print_json(pte_dump_json, h, "dump");
  } else {
    PteReport *report = NULL;
    if (pte_verify(h, (const PteHandle *const *)data, ndata, &report) != PTE_STATUS_OK) {
      rc = fail("verify");
    } else {
      bool valid = false;
      size_t n = 0;
      pte_report_valid(report, &valid);
      pte_report_len(report, &n);
      if (!only) {
        printf("%s: %s, %s, %zu finding(s)\n", argv[1], pte_kind_name((uint32_t)kind), valid ? "valid" : "invalid", n);
      }
      for (size_t i = 0; i < n; i++) {
        PteFinding f;
        if (pte_report_finding(report, i, &f) != PTE_STATUS_OK) continue;
        fprintf(stderr, "%s %s at %s", f.severity == PTE_SEVERITY_VIOLATION ? "violation" : "warning", f.rule, f.path);
        if (f.has_offset) fprintf(stderr, " (byte %llu)", (unsigned long long)f.offset);
        fprintf(stderr, ": %s", f.message);
        if (f.has_runtime_error) {
          fprintf(stderr, "; the runtime refuses it with %s (0x%02x) at %s", f.runtime_error_name, f.runtime_error_code,
                  f.runtime_error_stage);
        }
        fputc('\n', stderr);
      }
      if (pte_report_json(report, &json) == PTE_STATUS_OK) {
        puts(json);
        pte_string_free(&json);
      }
      pte_report_free(&report);
      rc = valid ? 0 : 1;
      if (!only && pte_summary_json(h, &json) == PTE_STATUS_OK) {
        puts(json);
        pte_string_free(&json);
      }
    }
  }
  for (size_t i = 0; i < ndata; i++) pte_close(&data[i]);
  pte_close(&h);
  pte_close(&h); /* harmless: the first close nulled h */
  return rc;
}
