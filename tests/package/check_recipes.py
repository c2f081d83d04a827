#!/usr/bin/env python3
"""Checks the vcpkg port (ports/retarget) and the Conan recipe (conanfile.py) against the build.

    check_recipes.py <source dir> <build dir> <version> <declared optional parts, comma-separated>

Neither vcpkg nor Conan runs here; what they rely on is checked instead:
- vcpkg.json is JSON, names port "retarget" at <version> (CMake's project version, from
  version.hpp), has one feature per optional part and depends on eigen3;
- every -D<option> the portfile passes, and every RETARGET_WITH_<PART> its vcpkg_check_features
  maps, is a cache variable of <build dir> (so it exists in CMakeLists.txt);
- conanfile.py parses (ast), is package_type "header-library", reads its version from
  version.hpp (which gives <version>), sets only existing cache variables, has one with_<part>
  option per optional part and declares the components core + the optional parts, each with the
  CMake target name retarget::retarget / retarget::<part>.
"""
import ast
import json
import os
import re
import sys


def fail(message):
    print("check_recipes: " + message)
    sys.exit(1)


def main():
    source, build, version, parts = sys.argv[1], sys.argv[2], sys.argv[3], [p for p in sys.argv[4].split(",") if p]
    with open(os.path.join(build, "CMakeCache.txt"), encoding="utf-8") as f:
        cache = {line.split(":", 1)[0] for line in f if re.match(r"^[A-Za-z_][A-Za-z0-9_]*:", line)}

    # vcpkg
    port = os.path.join(source, "ports", "retarget")
    with open(os.path.join(port, "vcpkg.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    if manifest.get("name") != "retarget":
        fail("vcpkg.json: name is %r, expected 'retarget'" % manifest.get("name"))
    port_version = manifest.get("version-semver") or manifest.get("version")
    if port_version != version:
        fail("vcpkg.json: version %r, expected %r (include/retarget/version.hpp)" % (port_version, version))
    dependencies = [d if isinstance(d, str) else d["name"] for d in manifest.get("dependencies", [])]
    if "eigen3" not in dependencies:
        fail("vcpkg.json: eigen3 is not a dependency")
    # vcpkg feature names take dashes where the parts have underscores (kinect_osc: kinect-osc).
    vcpkg_parts = sorted(p.replace("_", "-") for p in parts)
    if sorted(manifest.get("features", {})) != vcpkg_parts:
        fail("vcpkg.json: features %s, expected the optional parts %s" % (sorted(manifest.get("features", {})), vcpkg_parts))
    with open(os.path.join(port, "portfile.cmake"), encoding="utf-8") as f:
        portfile = f.read()
    options = set(re.findall(r"-D(RETARGET_[A-Z0-9_]+)=", portfile))
    features = dict(re.findall(r"^\s+([a-z_-]+) (RETARGET_WITH_[A-Z0-9_]+)\s*\)?$", portfile, re.M))
    if sorted(features) != vcpkg_parts:
        fail("portfile.cmake: vcpkg_check_features maps %s, expected %s" % (sorted(features), vcpkg_parts))
    for part, option in features.items():
        if option != "RETARGET_WITH_" + part.upper().replace("-", "_"):
            fail("portfile.cmake: feature %s maps to %s" % (part, option))
    for option in sorted(options | set(features.values())):
        if option not in cache:
            fail("portfile.cmake passes %s, which is not a cache variable of the build (CMakeLists.txt)" % option)
    print("vcpkg port: version %s, features %s, options %s: ok" % (port_version, ",".join(sorted(features)),
                                                                    " ".join(sorted(options))))

    # Conan
    with open(os.path.join(source, "conanfile.py"), encoding="utf-8") as f:
        recipe_text = f.read()
    tree = ast.parse(recipe_text, "conanfile.py")
    classes = [n for n in tree.body if isinstance(n, ast.ClassDef)]
    if len(classes) != 1:
        fail("conanfile.py: expected one recipe class")
    attributes = {}
    for node in classes[0].body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                attributes[node.targets[0].id] = ast.literal_eval(node.value)
            except ValueError:
                pass
    if attributes.get("name") != "retarget" or attributes.get("package_type") != "header-library":
        fail("conanfile.py: expected name 'retarget' and package_type 'header-library'")
    for part in parts:
        if "with_" + part not in attributes.get("options", {}):
            fail("conanfile.py: no option with_%s" % part)
    with open(os.path.join(source, "include", "retarget", "version.hpp"), encoding="utf-8") as f:
        header = f.read()
    # The recipe's own set_version() pattern, applied to version.hpp.
    pattern = re.search(r're\.search\(r"([^"]+)"', recipe_text).group(1)
    found = ".".join(re.search(pattern % p, header).group(1) for p in ("MAJOR", "MINOR", "PATCH"))
    if found != version:
        fail("conanfile.py reads version %s from version.hpp, CMake says %s" % (found, version))
    for option in re.findall(r'cache_variables\["([A-Z0-9_]+)"\]', recipe_text):
        if option not in cache:
            fail("conanfile.py sets %s, which is not a cache variable of the build" % option)
    components = set(re.findall(r'components\["([a-z_]+)"\]', recipe_text))
    components |= {p for p in parts if '("%s", ' % p in recipe_text}
    if components != set(["core"] + parts):
        fail("conanfile.py: components %s, expected core + %s" % (sorted(components), parts))
    targets = set(re.findall(r'"cmake_target_name", "([^"]+)"', recipe_text))
    if "retarget::retarget" not in targets or '"retarget::" + part' not in recipe_text:
        fail("conanfile.py: CMake target names are not retarget::retarget / retarget::<part>")
    print("conan recipe: version %s, components %s: ok" % (found, ",".join(sorted(components))))


if __name__ == "__main__":
    main()
