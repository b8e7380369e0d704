# Finds standalone asio (Debian's libasio-dev ships headers only and no CMake config).
# Defines the imported target Asio::Asio.
find_path(Asio_INCLUDE_DIR NAMES asio.hpp)
if(Asio_INCLUDE_DIR AND EXISTS "${Asio_INCLUDE_DIR}/asio/version.hpp")
  file(STRINGS "${Asio_INCLUDE_DIR}/asio/version.hpp" _asio_version_line REGEX "^#define ASIO_VERSION [0-9]+")
  string(REGEX REPLACE "^#define ASIO_VERSION ([0-9]+).*" "\\1" _asio_version_num "${_asio_version_line}")
  math(EXPR _asio_major "${_asio_version_num} / 100000")
  math(EXPR _asio_minor "${_asio_version_num} / 100 % 1000")
  math(EXPR _asio_patch "${_asio_version_num} % 100")
  set(Asio_VERSION "${_asio_major}.${_asio_minor}.${_asio_patch}")
endif()
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Asio REQUIRED_VARS Asio_INCLUDE_DIR VERSION_VAR Asio_VERSION)
if(Asio_FOUND AND NOT TARGET Asio::Asio)
  add_library(Asio::Asio INTERFACE IMPORTED)
  # ASIO_DISABLE_STD_ALIGNED_ALLOC: asio picks aligned_alloc/free or new/delete from macros that depend on which header a
  # file includes first, so files disagreed (an ODR violation ASan reports as alloc-dealloc-mismatch). Pin one choice.
  set_target_properties(Asio::Asio PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${Asio_INCLUDE_DIR}"
                                              INTERFACE_COMPILE_DEFINITIONS "ASIO_STANDALONE;ASIO_NO_DEPRECATED;ASIO_DISABLE_STD_ALIGNED_ALLOC")
  find_package(Threads REQUIRED)
  set_property(TARGET Asio::Asio APPEND PROPERTY INTERFACE_LINK_LIBRARIES Threads::Threads)
endif()
mark_as_advanced(Asio_INCLUDE_DIR)
