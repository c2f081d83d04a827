// Compiled by the ctest entry `warnings_policy` (tests/CMakeLists.txt) with retarget's own warning
// flags: the unused variable below is a warning, so the compile fails exactly when the build turns
// warnings into errors (RETARGET_WARNINGS_AS_ERRORS, on in the check presets only).
int main() {
  int unused = 0;
  return 0;
}
