# Conan 2 recipe: `conan create . -o "&:with_urdf=True"` or, from a consumer, `retarget/0.1.0`.
# Header-only; the version is read from include/retarget/version.hpp (the one place it is written);
# components mirror the CMake targets: core (retarget::retarget), urdf, json, avoidance, learning,
# kinect_osc, noitom, nao. with_learning needs an LBFGSpp recipe (lbfgspp/0.3.0) and with_kinect_osc a liblo
# recipe (liblo/0.32) in the configured remotes.
import os
import re

from conan import ConanFile
from conan.tools.cmake import CMake, CMakeToolchain, cmake_layout
from conan.tools.files import copy, load, rmdir


class RetargetConan(ConanFile):
    name = "retarget"
    package_type = "header-library"
    license = "BSD-3-Clause"
    description = "Header-only C++17 library (Eigen) that maps human motion onto humanoid robots and measures the imitation"
    topics = ("robotics", "retargeting", "humanoid", "motion-capture", "header-only")
    settings = "os", "arch", "compiler", "build_type"
    options = {"with_urdf": [True, False], "with_json": [True, False], "with_avoidance": [True, False],
               "with_learning": [True, False], "with_kinect_osc": [True, False],
               "with_noitom": [True, False], "with_nao": [True, False]}
    default_options = {"with_urdf": True, "with_json": True, "with_avoidance": False, "with_learning": False,
                       "with_kinect_osc": False, "with_noitom": False, "with_nao": False}
    exports_sources = "CMakeLists.txt", "LICENSE", "cmake/*", "include/*"
    no_copy_source = True

    def set_version(self):
        text = load(self, os.path.join(self.recipe_folder, "include", "retarget", "version.hpp"))
        parts = [re.search(r"#define RETARGET_VERSION_%s (\d+)" % p, text).group(1) for p in ("MAJOR", "MINOR", "PATCH")]
        self.version = ".".join(parts)

    def layout(self):
        cmake_layout(self)

    def requirements(self):
        self.requires("eigen/3.4.0")
        if self.options.with_urdf:
            self.requires("tinyxml2/10.0.0")
        if self.options.with_json:
            self.requires("nlohmann_json/3.11.3")
        if self.options.with_avoidance:
            self.requires("nlopt/2.7.1")
        if self.options.with_learning:
            self.requires("lbfgspp/0.3.0")
        if self.options.with_kinect_osc:
            self.requires("liblo/0.32")
        if self.options.with_noitom or self.options.with_nao:
            self.requires("asio/1.28.1")

    def package_id(self):
        self.info.clear()

    def generate(self):
        tc = CMakeToolchain(self)
        tc.cache_variables["RETARGET_BUILD_TESTS"] = False
        tc.cache_variables["RETARGET_BUILD_CLI"] = False
        tc.cache_variables["RETARGET_BUILD_EXAMPLES"] = False
        tc.cache_variables["RETARGET_BUILD_BENCHMARKS"] = False
        tc.cache_variables["RETARGET_INSTALL"] = True
        tc.cache_variables["RETARGET_WITH_URDF"] = bool(self.options.with_urdf)
        tc.cache_variables["RETARGET_WITH_JSON"] = bool(self.options.with_json)
        tc.cache_variables["RETARGET_WITH_AVOIDANCE"] = bool(self.options.with_avoidance)
        tc.cache_variables["RETARGET_WITH_LEARNING"] = bool(self.options.with_learning)
        tc.cache_variables["RETARGET_WITH_KINECT_OSC"] = bool(self.options.with_kinect_osc)
        tc.cache_variables["RETARGET_WITH_NOITOM"] = bool(self.options.with_noitom)
        tc.cache_variables["RETARGET_WITH_NAO"] = bool(self.options.with_nao)
        tc.generate()

    def package(self):
        cmake = CMake(self)
        cmake.configure()
        cmake.install()
        copy(self, "LICENSE", self.source_folder, os.path.join(self.package_folder, "licenses"))
        rmdir(self, os.path.join(self.package_folder, "share", "doc"))

    def package_info(self):
        self.cpp_info.bindirs = []
        self.cpp_info.libdirs = []
        self.cpp_info.set_property("cmake_file_name", "retarget")
        self.cpp_info.set_property("pkg_config_name", "retarget-all")
        core = self.cpp_info.components["core"]
        core.set_property("cmake_target_name", "retarget::retarget")
        core.set_property("pkg_config_name", "retarget")
        core.requires = ["eigen::eigen"]
        core.bindirs = []
        core.libdirs = []
        for part, dependency, enabled in (("urdf", "tinyxml2::tinyxml2", self.options.with_urdf),
                                          ("json", "nlohmann_json::nlohmann_json", self.options.with_json),
                                          ("avoidance", "nlopt::nlopt", self.options.with_avoidance),
                                          ("learning", "lbfgspp::lbfgspp", self.options.with_learning),
                                          ("kinect_osc", "liblo::liblo", self.options.with_kinect_osc),
                                          ("noitom", "asio::asio", self.options.with_noitom),
                                          ("nao", "asio::asio", self.options.with_nao)):
            if enabled:
                component = self.cpp_info.components[part]
                component.set_property("cmake_target_name", "retarget::" + part)
                component.set_property("pkg_config_name", "retarget-" + part)
                component.requires = ["core", dependency]
                component.bindirs = []
                component.libdirs = []
