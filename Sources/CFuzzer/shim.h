#include <stddef.h>
#include <stdint.h>

// libFuzzer's driver, for executables whose `main` is their own (SwiftPM renames ours).
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
