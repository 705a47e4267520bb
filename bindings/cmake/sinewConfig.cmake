# sinewConfig.cmake: lets a CMake project write
#
#   find_package(sinew CONFIG REQUIRED)            # or: find_package(sinew 0.1 CONFIG REQUIRED)
#   target_link_libraries(game PRIVATE sinew::sinew)          # the shared library (recommended)
#   target_link_libraries(tool PRIVATE sinew::sinew_static)   # the static library
#
# Both targets carry the include folders of sinew.h (C) and sinew.hpp (C++).
# The static library contains Rust's std: two Rust static libraries in one
# binary collide, so prefer the shared one (see the repository README).
#
# Where the files are looked for, from where this file sits:
#   - in the repository (bindings/cmake/ of a sinew checkout, found with
#     -Dsinew_DIR=<checkout>/bindings/cmake): include/ and bindings/cpp/ for
#     the headers, and the libraries cargo built, in $ENV{CARGO_TARGET_DIR}
#     then <checkout>/target, each in release/ then debug/;
#   - in an install prefix (<prefix>/lib/cmake/sinew/, found through
#     CMAKE_PREFIX_PATH): <prefix>/include and <prefix>/lib.
#
# Settings (cache variables or -D):
#   SINEW_LIBRARY_DIR    a folder holding the built libraries; skips the search.
#   SINEW_CARGO_PROFILE  release or debug: only that cargo profile is searched.
#
# Components: `COMPONENTS shared static` makes the package not found unless
# those libraries exist. Results: sinew_FOUND, SINEW_INCLUDE_DIRS,
# SINEW_LIBRARY_DIR (the folder used). Verified on Linux with GCC; the macOS
# and Windows names below follow cargo's output names but are untested.

if(TARGET sinew::sinew OR TARGET sinew::sinew_static)
  set(sinew_FOUND TRUE)
  return()
endif()

get_filename_component(_sinew_here "${CMAKE_CURRENT_LIST_FILE}" DIRECTORY)
get_filename_component(_sinew_repo "${_sinew_here}/../.." ABSOLUTE)
get_filename_component(_sinew_prefix "${_sinew_here}/../../.." ABSOLUTE)

if(SINEW_CARGO_PROFILE)
  set(_sinew_profiles "${SINEW_CARGO_PROFILE}")
else()
  set(_sinew_profiles release debug)
endif()

set(_sinew_dirs "")
if(EXISTS "${_sinew_repo}/include/sinew.h" AND EXISTS "${_sinew_repo}/Cargo.toml")
  # A checkout of the repository.
  set(SINEW_INCLUDE_DIRS "${_sinew_repo}/include" "${_sinew_repo}/bindings/cpp")
  set(_sinew_targets "")
  if(DEFINED ENV{CARGO_TARGET_DIR} AND NOT "$ENV{CARGO_TARGET_DIR}" STREQUAL "")
    list(APPEND _sinew_targets "$ENV{CARGO_TARGET_DIR}")
  endif()
  list(APPEND _sinew_targets "${_sinew_repo}/target")
  foreach(_sinew_target IN LISTS _sinew_targets)
    foreach(_sinew_profile IN LISTS _sinew_profiles)
      list(APPEND _sinew_dirs "${_sinew_target}/${_sinew_profile}")
    endforeach()
  endforeach()
elseif(EXISTS "${_sinew_prefix}/include/sinew.h")
  # An install prefix: <prefix>/lib/cmake/sinew/sinewConfig.cmake.
  set(SINEW_INCLUDE_DIRS "${_sinew_prefix}/include")
  list(APPEND _sinew_dirs "${_sinew_prefix}/lib" "${_sinew_prefix}/lib64")
else()
  set(sinew_FOUND FALSE)
  set(sinew_NOT_FOUND_MESSAGE
      "sinew.h not found beside ${_sinew_here}: expected a sinew checkout (bindings/cmake/) or an install prefix (lib/cmake/sinew/)")
  return()
endif()
if(SINEW_LIBRARY_DIR)
  set(_sinew_dirs "${SINEW_LIBRARY_DIR}")
endif()

# File names cargo gives the libraries.
if(WIN32)
  set(_sinew_shared_name "sinew.dll")
  if(MSVC)
    set(_sinew_implib_name "sinew.dll.lib")
    set(_sinew_static_name "sinew.lib")
  else()
    set(_sinew_implib_name "libsinew.dll.a")
    set(_sinew_static_name "libsinew.a")
  endif()
elseif(APPLE)
  set(_sinew_shared_name "libsinew.dylib")
  set(_sinew_static_name "libsinew.a")
else()
  set(_sinew_shared_name "libsinew.so")
  set(_sinew_static_name "libsinew.a")
endif()

# The first folder holding either library wins, so shared and static come
# from the same build.
set(SINEW_LIBRARY_DIR "")
foreach(_sinew_dir IN LISTS _sinew_dirs)
  if(EXISTS "${_sinew_dir}/${_sinew_shared_name}" OR EXISTS "${_sinew_dir}/${_sinew_static_name}")
    set(SINEW_LIBRARY_DIR "${_sinew_dir}")
    break()
  endif()
endforeach()
if(NOT SINEW_LIBRARY_DIR)
  string(REPLACE ";" "\n  " _sinew_list "${_sinew_dirs}")
  set(sinew_FOUND FALSE)
  set(sinew_NOT_FOUND_MESSAGE
      "no ${_sinew_shared_name} or ${_sinew_static_name} in:\n  ${_sinew_list}\nbuild it with `cargo build --release`, or set SINEW_LIBRARY_DIR")
  return()
endif()

if(EXISTS "${SINEW_LIBRARY_DIR}/${_sinew_shared_name}")
  add_library(sinew::sinew SHARED IMPORTED)
  set_target_properties(sinew::sinew PROPERTIES
    IMPORTED_LOCATION "${SINEW_LIBRARY_DIR}/${_sinew_shared_name}"
    INTERFACE_INCLUDE_DIRECTORIES "${SINEW_INCLUDE_DIRS}")
  if(WIN32)
    set_target_properties(sinew::sinew PROPERTIES IMPORTED_IMPLIB "${SINEW_LIBRARY_DIR}/${_sinew_implib_name}")
  else()
    # cargo sets no soname: link with -L/-l so the executable records
    # "libsinew.so", not the build path (CMake adds the build-tree rpath).
    set_target_properties(sinew::sinew PROPERTIES IMPORTED_NO_SONAME TRUE)
  endif()
endif()

if(EXISTS "${SINEW_LIBRARY_DIR}/${_sinew_static_name}")
  add_library(sinew::sinew_static STATIC IMPORTED)
  # What `cargo rustc -- --print native-static-libs` lists for the std inside.
  if(WIN32)
    set(_sinew_native kernel32 advapi32 ntdll userenv ws2_32 dbghelp bcrypt)
  elseif(APPLE)
    set(_sinew_native System c m)
  else()
    set(_sinew_native gcc_s util rt pthread m dl c)
  endif()
  set_target_properties(sinew::sinew_static PROPERTIES
    IMPORTED_LOCATION "${SINEW_LIBRARY_DIR}/${_sinew_static_name}"
    IMPORTED_LINK_INTERFACE_LANGUAGES "C"
    INTERFACE_INCLUDE_DIRECTORIES "${SINEW_INCLUDE_DIRS}"
    INTERFACE_LINK_LIBRARIES "${_sinew_native}")
endif()

set(sinew_FOUND TRUE)
foreach(_sinew_component IN LISTS sinew_FIND_COMPONENTS)
  if(_sinew_component STREQUAL "shared")
    set(_sinew_target sinew::sinew)
  elseif(_sinew_component STREQUAL "static")
    set(_sinew_target sinew::sinew_static)
  else()
    set(_sinew_target "")
  endif()
  if(_sinew_target AND TARGET ${_sinew_target})
    set(sinew_${_sinew_component}_FOUND TRUE)
  else()
    set(sinew_${_sinew_component}_FOUND FALSE)
    if(sinew_FIND_REQUIRED_${_sinew_component})
      set(sinew_FOUND FALSE)
      set(sinew_NOT_FOUND_MESSAGE "component '${_sinew_component}' not found in ${SINEW_LIBRARY_DIR}")
    endif()
  endif()
endforeach()

if(sinew_FOUND AND NOT sinew_FIND_QUIETLY)
  message(STATUS "sinew ${sinew_VERSION}: libraries in ${SINEW_LIBRARY_DIR}")
endif()
