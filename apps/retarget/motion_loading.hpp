#pragma once

// Loading any supported human-motion file for the `retarget` subcommands (map, eval, convert,
// info): the application layer's (retarget/app/motion_file.hpp), with the BVH schema file of the
// global `--schema` option.

#include <string>

#include <retarget/app/motion_file.hpp>
#include <retarget/human/motion.hpp>

namespace retarget::cli {

/// app::loadMotion with the schema file given by `setBvhSchemaFile` (none by default).
retarget::SkeletonMotion<double> loadMotion(const std::string& path);

/// The schema file (human/schema.hpp text format, e.g. edited from `retarget schema suggest`)
/// that `loadMotion` applies to BVH files; empty: none (the global `--schema` option).
void setBvhSchemaFile(const std::string& path);

}  // namespace retarget::cli
