# sinewConfigVersion.cmake: the version find_package(sinew <version>) checks.
# Kept equal to Cargo.toml's version by tests/cmake_package.rs.
# Semantic versioning: before 1.0 a minor release may break the API, so
# 0.MINOR must match; from 1.0 on the major must match. A newer patch or minor
# than requested is accepted, an older one is not.
set(PACKAGE_VERSION "0.1.0")

if(PACKAGE_FIND_VERSION VERSION_GREATER PACKAGE_VERSION)
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
else()
  string(REGEX MATCH "^([0-9]+)\\.([0-9]+)" _sinew_have "${PACKAGE_VERSION}")
  set(_sinew_have_major "${CMAKE_MATCH_1}")
  set(_sinew_have_minor "${CMAKE_MATCH_2}")
  if(NOT PACKAGE_FIND_VERSION_MAJOR STREQUAL _sinew_have_major)
    set(PACKAGE_VERSION_COMPATIBLE FALSE)
  elseif(_sinew_have_major STREQUAL "0" AND NOT "${PACKAGE_FIND_VERSION_MINOR}" STREQUAL "" AND
         NOT PACKAGE_FIND_VERSION_MINOR STREQUAL _sinew_have_minor)
    set(PACKAGE_VERSION_COMPATIBLE FALSE)
  else()
    set(PACKAGE_VERSION_COMPATIBLE TRUE)
  endif()
  if(PACKAGE_FIND_VERSION STREQUAL PACKAGE_VERSION)
    set(PACKAGE_VERSION_EXACT TRUE)
  endif()
endif()

# The libraries are built for one pointer size; refuse a project of another.
if(DEFINED CMAKE_SIZEOF_VOID_P AND NOT CMAKE_SIZEOF_VOID_P STREQUAL "8")
  set(PACKAGE_VERSION "${PACKAGE_VERSION} (64-bit)")
  set(PACKAGE_VERSION_UNSUITABLE TRUE)
endif()
