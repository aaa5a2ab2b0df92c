# tascell_add_executable(<name> <sources>...)
#
# Like add_executable, for programs with .tcpp sources: every .tcpp file
# (and every C++ source in the attribute spelling) is translated by
# tascellc (at build time, again whenever it changes) into
# <build>/<name>.tascell/<stem>.cpp, parsed with the target's include
# directories and compile definitions; other sources are compiled as they
# are, the translated ones with -falign-functions=64 -falign-loops=64 as
# tascell++ does (docs/decisions.md, "Translated code starts on a cache
# line"). The target links tascell::runtime. For the sources in the
# attribute spelling it also adds <name>_as_written, an object library
# never built, whose entries in compile_commands.json let clangd parse them
# as written. Works in this project's build tree and, through
# find_package(Tascell), from an installed prefix.
function(tascell_add_executable name)
  set(sources)
  set(plain_sources)
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
      if(spelled)
        list(APPEND plain_sources "${abs}")
      endif()
    else()
      list(APPEND sources "${src}")
    endif()
  endforeach()
  add_executable(${name} ${sources})
  target_link_libraries(${name} PRIVATE tascell::runtime)
  # Sources in the attribute spelling are standard C++: an object library
  # that is never built compiles them as they are (the sequential API of
  # tascell/api.hpp, the attributes' warnings off), so that a compilation
  # database (CMAKE_EXPORT_COMPILE_COMMANDS) gives clangd and other tools
  # the user's files with flags that parse them without errors.
  if(plain_sources)
    add_library(${name}_as_written OBJECT EXCLUDE_FROM_ALL ${plain_sources})
    target_link_libraries(${name}_as_written PRIVATE tascell::runtime)
    target_include_directories(${name}_as_written PRIVATE $<TARGET_PROPERTY:${name},INCLUDE_DIRECTORIES>)
    target_compile_definitions(${name}_as_written PRIVATE $<TARGET_PROPERTY:${name},COMPILE_DEFINITIONS>)
    target_compile_options(${name}_as_written PRIVATE -Wno-attributes)
  endif()
endfunction()
