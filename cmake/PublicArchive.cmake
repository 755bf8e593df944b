# xskx_public_archive(TARGET MAP PARTS...): a static library, TARGET, that
# exports what the shared library linked with version script MAP does and
# nothing more, so that a program's own sim_lock() or xskx__pool_take()
# cannot clash with ours. The object libraries PARTS are linked into one
# relocatable object (ld -r), in which every symbol MAP does not list is
# made local (objcopy), and the archive holds that object alone. Used for
# libxskx.a (lib/) and libxskx-sim.a (lib/sim/).
function(xskx_public_archive target map)
	set(parts ${ARGN})
	set(objects)
	foreach(part IN LISTS parts)
		list(APPEND objects $<TARGET_OBJECTS:${part}>)
	endforeach()
	file(READ ${map} names)
	string(REGEX REPLACE "/\\*([^*]|\\*+[^*/])*\\*+/" "" names "${names}")
	# Every "name;" of the map ("local: *;" has none); ";" separates
	# CMake lists.
	string(REPLACE ";" "," names "${names}")
	string(REGEX MATCHALL "[A-Za-z_][A-Za-z0-9_]*[ \t]*," names "${names}")
	list(TRANSFORM names REPLACE "[ \t,]" "")
	list(JOIN names "\n" names)
	set(keep ${CMAKE_CURRENT_BINARY_DIR}/${target}.keep)
	file(CONFIGURE OUTPUT ${keep} CONTENT "${names}\n")
	set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${map})

	set(object ${CMAKE_CURRENT_BINARY_DIR}/${target}-public.o)
	add_custom_command(
		OUTPUT ${object}
		COMMAND ${CMAKE_LINKER} -r -o ${object}.all ${objects}
		COMMAND ${CMAKE_OBJCOPY} --keep-global-symbols=${keep}
			${object}.all ${object}
		BYPRODUCTS ${object}.all
		DEPENDS ${objects} ${keep}
		COMMENT "Linking ${target}'s objects; only the API stays global"
		COMMAND_EXPAND_LISTS
		VERBATIM)
	set_source_files_properties(${object} PROPERTIES
		EXTERNAL_OBJECT TRUE GENERATED TRUE)
	add_library(${target} STATIC ${object})
	set_target_properties(${target} PROPERTIES LINKER_LANGUAGE C)
	# The command reads the parts' objects: they must be built first.
	add_dependencies(${target} ${parts})
endfunction()

# xskx_shared_version(TARGET MAP): the soname and version script of one of
# xskx's shared libraries. During 0.x any minor release may break the ABI
# (CHANGELOG.md says when): the soname carries the minor version too,
# libxskx.so.0.1, so that a program built against 0.1 never loads 0.2.
# From 1.0 on, the major alone.
function(xskx_shared_version target map)
	if(PROJECT_VERSION_MAJOR EQUAL 0)
		set(soversion ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
	else()
		set(soversion ${PROJECT_VERSION_MAJOR})
	endif()
	set_target_properties(${target} PROPERTIES
		VERSION ${PROJECT_VERSION}
		SOVERSION ${soversion}
		LINK_DEPENDS ${map})
	target_link_options(${target} PRIVATE LINKER:--version-script=${map})
	# Instrumented for libFuzzer (cmake/Fuzz.cmake), the library calls
	# the coverage hooks that the fuzz program itself defines: clang
	# links the sanitizer runtimes into programs only.
	if(NOT XSKX_FUZZ)
		target_link_options(${target} PRIVATE LINKER:--no-undefined)
	endif()
endfunction()
