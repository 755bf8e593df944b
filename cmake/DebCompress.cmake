# Run by cpack (CPACK_PRE_BUILD_SCRIPTS, cmake/DebPackages.cmake) on the
# staged files of every package before it is built: Debian wants manual
# pages and changelog.Debian compressed with gzip -9n (-n: no name nor
# time stamp inside, so that the same files give the same package). A
# page that is a link (man3: a function's name leading to its group's
# page) becomes a link to the compressed page.
find_program(xskx_gzip gzip REQUIRED)
file(GLOB_RECURSE staged LIST_DIRECTORIES false
	"${CPACK_TEMPORARY_DIRECTORY}/*")
foreach(path IN LISTS staged)
	if(NOT path MATCHES "/share/man/man[1-9]/[^/]+\\.[1-9]$" AND
	   NOT path MATCHES "/share/doc/[^/]+/changelog\\.Debian$")
		continue()
	endif()
	if(IS_SYMLINK "${path}")
		file(READ_SYMLINK "${path}" target)
		file(REMOVE "${path}")
		file(CREATE_LINK "${target}.gz" "${path}.gz" SYMBOLIC)
	else()
		execute_process(COMMAND ${xskx_gzip} -9n "${path}"
			COMMAND_ERROR_IS_FATAL ANY)
	endif()
endforeach()
