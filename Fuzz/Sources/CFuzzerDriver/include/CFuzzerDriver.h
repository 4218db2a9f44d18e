// libFuzzer's entry point for programs that own main(), as declared in its FuzzerInterface.h.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
