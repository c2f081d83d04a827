# Defines the imported target asio::asio (standalone asio, header-only; Debian libasio-dev)
# when no package configuration provided it: Debian's asio installs headers only. Used by
# retarget::noitom and retarget::nao, here and in the installed retargetConfig.cmake; a missing
# asio leaves the target undefined (and the parts out, with their STATUS messages).
include_guard(GLOBAL)

# CMAKE_DISABLE_FIND_PACKAGE_asio (the package tests hide dependencies with it) turns the
# search off.
if(NOT TARGET asio::asio AND NOT CMAKE_DISABLE_FIND_PACKAGE_asio)
  find_package(asio CONFIG QUIET)  # vcpkg and Conan provide asio::asio this way
endif()
if(NOT TARGET asio::asio AND NOT CMAKE_DISABLE_FIND_PACKAGE_asio)
  find_path(RETARGET_ASIO_INCLUDE_DIR NAMES asio.hpp DOC "Directory holding asio.hpp (standalone asio, for retarget::noitom and retarget::nao)")
  mark_as_advanced(RETARGET_ASIO_INCLUDE_DIR)
  find_package(Threads QUIET)
  if(RETARGET_ASIO_INCLUDE_DIR AND TARGET Threads::Threads)
    add_library(asio::asio INTERFACE IMPORTED)
    set_target_properties(asio::asio PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${RETARGET_ASIO_INCLUDE_DIR}"
                                                INTERFACE_COMPILE_DEFINITIONS "ASIO_STANDALONE"
                                                INTERFACE_LINK_LIBRARIES Threads::Threads)
  endif()
endif()
