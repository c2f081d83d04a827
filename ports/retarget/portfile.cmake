# vcpkg overlay port: `vcpkg install retarget[urdf,json] --overlay-ports=<retarget>/ports`.
# Builds from this source tree (the port lives in it); for a registry, replace SOURCE_PATH by
# vcpkg_from_github(OUT_SOURCE_PATH SOURCE_PATH REPO <owner>/retarget REF "v${VERSION}" SHA512 <...>).
get_filename_component(SOURCE_PATH "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
set(VCPKG_BUILD_TYPE release)  # header-only

vcpkg_check_features(OUT_FEATURE_OPTIONS FEATURE_OPTIONS
  FEATURES
    urdf RETARGET_WITH_URDF
    json RETARGET_WITH_JSON
    avoidance RETARGET_WITH_AVOIDANCE
    learning RETARGET_WITH_LEARNING
    kinect-osc RETARGET_WITH_KINECT_OSC
    noitom RETARGET_WITH_NOITOM
    nao RETARGET_WITH_NAO)

vcpkg_cmake_configure(SOURCE_PATH "${SOURCE_PATH}"
  OPTIONS
    -DRETARGET_BUILD_TESTS=OFF
    -DRETARGET_BUILD_CLI=OFF
    -DRETARGET_BUILD_EXAMPLES=OFF
    -DRETARGET_BUILD_BENCHMARKS=OFF
    -DRETARGET_INSTALL=ON
    ${FEATURE_OPTIONS})
vcpkg_cmake_install()
vcpkg_cmake_config_fixup(CONFIG_PATH share/cmake/retarget)
vcpkg_fixup_pkgconfig()
file(REMOVE_RECURSE "${CURRENT_PACKAGES_DIR}/share/doc")
vcpkg_install_copyright(FILE_LIST "${SOURCE_PATH}/LICENSE")
file(INSTALL "${CMAKE_CURRENT_LIST_DIR}/usage" DESTINATION "${CURRENT_PACKAGES_DIR}/share/${PORT}")
