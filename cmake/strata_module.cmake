# strata_module(NAME [SOURCES ...] [DEPS ...] [LIBS ...] [API header ...])
#
# Declares the library target strata_<NAME> for the top-level folder NAME.
# Sources include headers rooted at the repository ("ondisk/page.h"), but the
# repository root is never on the include path. Instead each module gets its own
# include root in the build tree, <build>/include/<NAME>/, holding one symlink
# NAME -> <source>/NAME. A target therefore sees exactly the modules it links:
# an upward or sideways include (ondisk including engine/...) does not compile.
#
# With API, the modules above see only those headers (a root of their own, <build>/include/
# NAME-api/, one symlink per header); the module's own sources see all of its files. (Tests
# include from the repository root and see everything.)
function(strata_module name)
  cmake_parse_arguments(M "" "" "SOURCES;DEPS;LIBS;API" ${ARGN})
  set(root "${CMAKE_BINARY_DIR}/include/${name}")
  file(MAKE_DIRECTORY "${root}")
  if(NOT EXISTS "${root}/${name}")
    file(CREATE_LINK "${CMAKE_SOURCE_DIR}/${name}" "${root}/${name}" SYMBOLIC)
  endif()
  set(target strata_${name})
  if(M_SOURCES AND M_API)
    set(api_root "${CMAKE_BINARY_DIR}/include/${name}-api")
    file(REMOVE_RECURSE "${api_root}")
    file(MAKE_DIRECTORY "${api_root}/${name}")
    foreach(header ${M_API})
      file(CREATE_LINK "${CMAKE_SOURCE_DIR}/${name}/${header}" "${api_root}/${name}/${header}" SYMBOLIC)
    endforeach()
    add_library(${target} STATIC ${M_SOURCES})
    target_include_directories(${target} PRIVATE "${root}" PUBLIC "${api_root}")
    target_link_libraries(${target} PUBLIC ${M_DEPS} PRIVATE ${M_LIBS})
  elseif(M_SOURCES)
    add_library(${target} STATIC ${M_SOURCES})
    target_include_directories(${target} PUBLIC "${root}")
    target_link_libraries(${target} PUBLIC ${M_DEPS} PRIVATE ${M_LIBS})
  else()
    # A module whose code a later issue brings: its headers and dependency edges exist now.
    add_library(${target} INTERFACE)
    target_include_directories(${target} INTERFACE "${root}")
    target_link_libraries(${target} INTERFACE ${M_DEPS})
  endif()
  add_library(strata::${name} ALIAS ${target})
endfunction()
