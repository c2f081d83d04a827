// Motion-file loading for the `retarget` command line: see motion_loading.hpp.
#include "motion_loading.hpp"

namespace retarget::cli {

namespace {
std::string& bvhSchemaFile() {
  static std::string path;
  return path;
}
}  // namespace

void setBvhSchemaFile(const std::string& path) { bvhSchemaFile() = path; }

retarget::SkeletonMotion<double> loadMotion(const std::string& path) { return app::loadMotion(path, bvhSchemaFile()); }

}  // namespace retarget::cli
