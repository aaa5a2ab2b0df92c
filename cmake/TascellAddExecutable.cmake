# tascell_add_executable(<name> <sources>...)
#
# Like add_executable, for programs with .tcpp sources: every .tcpp file
# (and every C++ source in the attribute spelling) is translated by tascellc (at build time, again whenever it changes) into
# <build>/<name>.tascell/<stem>.cpp, parsed with the target's include
# directories and compile definitions; other sources are compiled as they
# are, the translated ones with -falign-functions=64 -falign-loops=64 as tascell++ does
# (docs/decisions.md, "Translated code starts on a cache line"). The target
# links tascell::runtime. Works in this project's build tree
# and, through find_package(Tascell), from an installed prefix.
function(tascell_add_executable name)
  set(sources)
  foreach(src IN LISTS ARGN)
    # A C++ source in the attribute spelling ([[tascell::task]], ...,
    # TASCELL_WIND) is translated too, as tascell++ does.
    set(spelled FALSE)
    if(src MATCHES "\\.(cpp|cc|cxx)$")
      get_filename_component(abs "${src}" ABSOLUTE)
      file(READ "${abs}" text)
      set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${abs}")  # its spelling may change
      if(text MATCHES "tascell::(task|dowork|shared)|TASCELL_WIND")
        set(spelled TRUE)
      endif()
    endif()
    if(src MATCHES "\\.tcpp$" OR spelled)
      get_filename_component(abs "${src}" ABSOLUTE)
      get_filename_component(stem "${src}" NAME_WE)
      set(out "${CMAKE_CURRENT_BINARY_DIR}/${name}.tascell/${stem}.cpp")
      set(incs "$<TARGET_PROPERTY:${name},INCLUDE_DIRECTORIES>")
      set(defs "$<TARGET_PROPERTY:${name},COMPILE_DEFINITIONS>")
      add_custom_command(
        OUTPUT "${out}"
        COMMAND "${CMAKE_COMMAND}" -E make_directory "${CMAKE_CURRENT_BINARY_DIR}/${name}.tascell"
        COMMAND tascell::tascellc "${abs}" -o "${out}" --
                "$<$<BOOL:${incs}>:-I$<JOIN:${incs},;-I>>"
                "$<$<BOOL:${defs}>:-D$<JOIN:${defs},;-D>>"
        DEPENDS "${abs}" tascell::tascellc
        COMMENT "Translating ${src}"
        COMMAND_EXPAND_LISTS VERBATIM)
      set_source_files_properties("${out}" PROPERTIES COMPILE_OPTIONS "-falign-functions=64;-falign-loops=64")
      list(APPEND sources "${out}")
    else()
      list(APPEND sources "${src}")
    endif()
  endforeach()
  add_executable(${name} ${sources})
  target_link_libraries(${name} PRIVATE tascell::runtime)
endfunction()
