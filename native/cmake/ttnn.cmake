# The ttnn implementation, libsam3native_ttnn.so, built against a tt-metal source tree that build_metal.sh has
# built (TT_METAL_HOME). Like tt-mlir's runtime (third_party/CMakeLists.txt at tt-mlir 19c86fca), it takes the
# headers from the source tree and its CPM cache and links the libraries in build/lib, because the installed
# TT-NN package does not ship every op header. Pinned to tt-metal d5f9bc4a43b1287523458f1af6a470c6b2adc180.
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
    message(FATAL_ERROR "SAM3N_WITH_TTNN=ON but neither build/lib nor build/lib64 of '${SAM3N_TT_METAL_HOME}' "
                        "holds _ttnncpp.so: set TT_METAL_HOME to a tt-metal tree built with build_metal.sh")
  endif()
  # AUTO: a machine without the tree builds the host implementation only, and says so where it cannot be missed
  message(WARNING "ttnn implementation skipped: TT_METAL_HOME ('${SAM3N_TT_METAL_HOME}') does not name a built "
                  "tt-metal tree; only the host implementation is built (SAM3N_WITH_TTNN=ON makes this an error)")
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

set(SAM3N_TTNN_SOURCES
  ${SAM3N_SRC}/ttnn/tt_attention.cpp
  ${SAM3N_SRC}/ttnn/tt_context.cpp
  ${SAM3N_SRC}/ttnn/tt_fusion_encoder.cpp
  ${SAM3N_SRC}/ttnn/tt_layers.cpp
  ${SAM3N_SRC}/ttnn/tt_trace.cpp
  ${SAM3N_SRC}/ttnn/tt_vit_trunk.cpp
  ${SAM3N_SRC}/ttnn/ttnn_backend.cpp)

add_library(sam3native_ttnn SHARED ${SAM3N_CORE_SOURCES} ${SAM3N_TTNN_SOURCES})
# tt-metal's headers need C++20 and x86-64-v3 (its own build uses -march=x86-64-v3).
target_compile_features(sam3native_ttnn PRIVATE cxx_std_20)
target_compile_definitions(sam3native_ttnn PRIVATE FMT_HEADER_ONLY)
target_compile_options(sam3native_ttnn PRIVATE -march=x86-64-v3)
target_include_directories(sam3native_ttnn PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/include ${SAM3N_JNI_INCLUDES}
                                                   ${SAM3N_JNI_HEADERS})
target_include_directories(sam3native_ttnn SYSTEM PRIVATE ${SAM3N_TTNN_INCLUDES})
# Shared C++ runtime: C++ objects cross into tt-metal's libraries, so no static libstdc++ here.
target_link_libraries(sam3native_ttnn PRIVATE
  ${SAM3N_TTNN_LIBRARY}
  ${SAM3N_TT_METAL_LIBDIR}/libtt_metal.so
  ${SAM3N_TT_METAL_LIBDIR}/libtt-umd.so
  ${SAM3N_TT_METAL_LIBDIR}/libtt_stl.so
  Threads::Threads dl)
if(EXISTS "${SAM3N_TT_METAL_LIBDIR}/libtracy.so")
  target_link_libraries(sam3native_ttnn PRIVATE ${SAM3N_TT_METAL_LIBDIR}/libtracy.so)
endif()
target_link_options(sam3native_ttnn PRIVATE -Wl,--version-script=${SAM3N_EXPORTS})
set_target_properties(sam3native_ttnn PROPERTIES
  LIBRARY_OUTPUT_DIRECTORY "${SAM3N_OUTPUT_DIR}"
  BUILD_RPATH "${SAM3N_TT_METAL_LIBDIR}"
  INSTALL_RPATH "$ORIGIN;${SAM3N_TT_METAL_LIBDIR}")
message(STATUS "ttnn implementation: building libsam3native_ttnn.so against ${SAM3N_TT_METAL_HOME}")
