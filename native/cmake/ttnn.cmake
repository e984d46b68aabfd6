# The ttnn implementation, libsam3native_ttnn.so, against tt-metal at the commit of cmake/tt-metal-pin.txt, from
# one of two sources:
# - an installed TT-NN CMake package (find_package(TT-NN) and find_package(TT-Metalium), the names tt-metal
#   installs under lib/cmake/tt-nn and lib/cmake/tt-metalium; tt-mlir 19c86fca's standalone template consumes
#   TT-NN the same way, after finding xtensor), when CMAKE_PREFIX_PATH or TT-NN_DIR leads to one;
# - else a tt-metal source tree that build_metal.sh has built (TT_METAL_HOME). Like tt-mlir's runtime
#   (third_party/CMakeLists.txt at tt-mlir 19c86fca), it takes the headers from the tree and its CPM cache and
#   links the libraries in build/lib, because the installed package may not ship every op header this code
#   includes (the experimental minimal_matmul ones): SAM3N_TTNN_PACKAGE=OFF forces the tree.
set(SAM3N_TTNN_PACKAGE AUTO CACHE STRING
    "Use an installed TT-NN package: AUTO (when one is found), ON, OFF (the tree only)")

# What both sources share: the sources, C++20, the export list and where the library is written.
function(sam3n_add_ttnn_library)
  add_library(sam3native_ttnn SHARED ${SAM3N_CORE_SOURCES} ${SAM3N_CORE_OBJECTS} ${SAM3N_TTNN_SOURCES})
  # tt-metal's headers need C++20 and x86-64-v3 (its own build uses -march=x86-64-v3).
  target_compile_features(sam3native_ttnn PRIVATE cxx_std_20)
  target_compile_options(sam3native_ttnn PRIVATE -march=x86-64-v3)
  target_include_directories(sam3native_ttnn PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/include ${SAM3N_JNI_INCLUDES}
                                                     ${SAM3N_JNI_HEADERS})
  target_link_libraries(sam3native_ttnn PRIVATE Threads::Threads dl)
  # Shared C++ runtime: C++ objects cross into tt-metal's libraries, so no static libstdc++ here.
  target_link_options(sam3native_ttnn PRIVATE -Wl,--version-script=${SAM3N_EXPORTS})
  set_target_properties(sam3native_ttnn PROPERTIES LIBRARY_OUTPUT_DIRECTORY "${SAM3N_OUTPUT_DIR}")
endfunction()

if(NOT SAM3N_TTNN_PACKAGE STREQUAL "OFF")
  find_package(xtensor CONFIG QUIET)
  find_package(TT-Metalium CONFIG QUIET)
  find_package(TT-NN CONFIG QUIET)
endif()
if(TT-NN_FOUND AND TT-Metalium_FOUND)
  sam3n_add_ttnn_library()
  target_link_libraries(sam3native_ttnn PRIVATE TTNN::TTNN)
  if(TARGET TT::Metalium)
    target_link_libraries(sam3native_ttnn PRIVATE TT::Metalium)
  endif()
  message(STATUS "ttnn implementation: building libsam3native_ttnn.so against the installed TT-NN package "
                 "(${TT-NN_DIR}) and TT-Metalium package (${TT-Metalium_DIR}); tt-metal pin ${SAM3N_TT_METAL_PIN}")
  return()
endif()
if(SAM3N_TTNN_PACKAGE STREQUAL "ON")
  message(FATAL_ERROR "SAM3N_TTNN_PACKAGE=ON but find_package found no TT-NN and TT-Metalium packages "
                      "(TT-NN: '${TT-NN_DIR}', TT-Metalium: '${TT-Metalium_DIR}'): add their install prefix to "
                      "CMAKE_PREFIX_PATH")
endif()

set(SAM3N_TT_METAL_HOME "$ENV{TT_METAL_HOME}" CACHE PATH "Built tt-metal source tree (defaults to TT_METAL_HOME)")

# build_metal.sh puts the libraries in build/lib, or build/lib64 where the platform's GNUInstallDirs say so.
set(SAM3N_TTNN_LIBRARY "")
foreach(libdir lib lib64)
  if(SAM3N_TT_METAL_HOME AND EXISTS "${SAM3N_TT_METAL_HOME}/build/${libdir}/_ttnncpp.so")
    set(SAM3N_TT_METAL_LIBDIR "${SAM3N_TT_METAL_HOME}/build/${libdir}")
    set(SAM3N_TTNN_LIBRARY "${SAM3N_TT_METAL_LIBDIR}/_ttnncpp.so")
    break()
  endif()
endforeach()

if(NOT SAM3N_TTNN_LIBRARY)
  if(SAM3N_WITH_TTNN STREQUAL "ON")
    message(FATAL_ERROR "SAM3N_WITH_TTNN=ON but no TT-NN package was found and neither build/lib nor build/lib64 "
                        "of '${SAM3N_TT_METAL_HOME}' holds _ttnncpp.so: set TT_METAL_HOME to a tt-metal tree built "
                        "with build_metal.sh, or add an installed TT-NN package to CMAKE_PREFIX_PATH")
  endif()
  # AUTO: a machine without the tree builds the host implementation only, and says so where it cannot be missed
  message(WARNING "ttnn implementation skipped: no TT-NN package was found and TT_METAL_HOME "
                  "('${SAM3N_TT_METAL_HOME}') does not name a built tt-metal tree; only the host implementation is "
                  "built (SAM3N_WITH_TTNN=ON makes this an error)")
  return()
endif()
if(DEFINED ENV{CPM_SOURCE_CACHE})
  set(SAM3N_CPM_CACHE "$ENV{CPM_SOURCE_CACHE}")
else()
  set(SAM3N_CPM_CACHE "${SAM3N_TT_METAL_HOME}/.cpmcache")
endif()

# Header-only dependencies fetched by tt-metal's CPM; their folders are named by content hash.
set(SAM3N_TTNN_INCLUDES
  ${SAM3N_TT_METAL_HOME}/tt_metal/third_party/tracy/public
  ${SAM3N_TT_METAL_HOME}/ttnn
  ${SAM3N_TT_METAL_HOME}/ttnn/api
  ${SAM3N_TT_METAL_HOME}/ttnn/core
  ${SAM3N_TT_METAL_HOME}/ttnn/cpp
  ${SAM3N_TT_METAL_HOME}/ttnn/cpp/ttnn
  ${SAM3N_TT_METAL_HOME}/ttnn/cpp/ttnn/deprecated
  ${SAM3N_TT_METAL_HOME}
  ${SAM3N_TT_METAL_HOME}/tt_metal
  ${SAM3N_TT_METAL_HOME}/tt_metal/api
  ${SAM3N_TT_METAL_HOME}/tt_metal/hostdevcommon/api
  ${SAM3N_TT_METAL_HOME}/tt_metal/third_party/umd
  ${SAM3N_TT_METAL_HOME}/tt_metal/third_party/umd/device/api
  ${SAM3N_TT_METAL_HOME}/tt_metal/hw/inc
  ${SAM3N_TT_METAL_HOME}/tt_stl
  ${SAM3N_TT_METAL_HOME}/tt_stl/tt_stl
  ${SAM3N_TT_METAL_HOME}/build/include)
# One folder per package: a cache holding two versions of one (a tt-metal rebuilt after a bump) would put both on
# the include path and mix their headers, so that is refused with the folders named.
foreach(pattern reflect/* nanomsg/*/include fmt/*/include enchantum/*/enchantum/include boost/*/libs/core/include
                nlohmann_json/*/include spdlog/*/include tt-logger/*/include xtl/*/include xtensor/*/include
                xtensor-blas/*/include)
  file(GLOB found LIST_DIRECTORIES true "${SAM3N_CPM_CACHE}/${pattern}")
  list(LENGTH found versions)
  if(versions GREATER 1)
    message(FATAL_ERROR "the CPM cache ${SAM3N_CPM_CACHE} holds ${versions} versions of ${pattern}: ${found}; "
                        "point CPM_SOURCE_CACHE at the cache of the tt-metal build in use, or remove the stale one")
  endif()
  list(APPEND SAM3N_TTNN_INCLUDES ${found})
endforeach()

# A tree checked out at another commit than the pin builds, but against declarations nobody has checked.
if(EXISTS "${SAM3N_TT_METAL_HOME}/.git")
  execute_process(COMMAND git -C "${SAM3N_TT_METAL_HOME}" rev-parse HEAD OUTPUT_VARIABLE sam3n_tree_commit
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(sam3n_tree_commit AND NOT sam3n_tree_commit STREQUAL SAM3N_TT_METAL_PIN)
    message(WARNING "tt-metal tree ${SAM3N_TT_METAL_HOME} is at ${sam3n_tree_commit}, not at the pin "
                    "${SAM3N_TT_METAL_PIN} (cmake/tt-metal-pin.txt) the ttnn sources are written against")
  endif()
endif()

sam3n_add_ttnn_library()
target_compile_definitions(sam3native_ttnn PRIVATE FMT_HEADER_ONLY)
target_include_directories(sam3native_ttnn SYSTEM PRIVATE ${SAM3N_TTNN_INCLUDES})
target_link_libraries(sam3native_ttnn PRIVATE
  ${SAM3N_TTNN_LIBRARY}
  ${SAM3N_TT_METAL_LIBDIR}/libtt_metal.so
  ${SAM3N_TT_METAL_LIBDIR}/libtt-umd.so
  ${SAM3N_TT_METAL_LIBDIR}/libtt_stl.so)
if(EXISTS "${SAM3N_TT_METAL_LIBDIR}/libtracy.so")
  target_link_libraries(sam3native_ttnn PRIVATE ${SAM3N_TT_METAL_LIBDIR}/libtracy.so)
endif()
set_target_properties(sam3native_ttnn PROPERTIES
  BUILD_RPATH "${SAM3N_TT_METAL_LIBDIR}"
  INSTALL_RPATH "$ORIGIN;${SAM3N_TT_METAL_LIBDIR}")
message(STATUS "ttnn implementation: building libsam3native_ttnn.so against the tt-metal tree "
               "${SAM3N_TT_METAL_HOME} (libraries in ${SAM3N_TT_METAL_LIBDIR}); tt-metal pin ${SAM3N_TT_METAL_PIN}")
