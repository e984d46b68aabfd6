# Compiles every ttnn source against the project's stand-in headers (src/test/ttnn-stand-in), which declare the
# ttnn / tt-metalium API this code calls with the signatures of the pinned commit. It runs on machines without
# tt-metal, as part of every build (so `mvn verify`): a call that no longer matches a declared signature, a
# type error or a warning fails the build. It proves the code against the declarations, not against tt-metal.
file(GLOB sam3n_ttnn_found ${SAM3N_SRC}/ttnn/*.cpp)
foreach(source ${sam3n_ttnn_found})
  if(NOT source IN_LIST SAM3N_TTNN_SOURCES)
    message(FATAL_ERROR "${source} is missing from SAM3N_TTNN_SOURCES in CMakeLists.txt")
  endif()
endforeach()

# Objects nobody links: the declarations have no definitions. -O0 because only the front end matters here.
add_library(sam3n_ttnn_stand_in_check OBJECT ${SAM3N_TTNN_SOURCES})
target_compile_features(sam3n_ttnn_stand_in_check PRIVATE cxx_std_20)
target_compile_definitions(sam3n_ttnn_stand_in_check PRIVATE SAM3N_TT_METAL_PIN="${SAM3N_TT_METAL_PIN}")
target_compile_options(sam3n_ttnn_stand_in_check PRIVATE ${SAM3N_WARNINGS} -Werror -O0)
# Not SYSTEM: the stand-ins are this project's code and held to the same warnings.
target_include_directories(sam3n_ttnn_stand_in_check PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/include
                                                             ${CMAKE_CURRENT_SOURCE_DIR}/src/test/ttnn-stand-in)
