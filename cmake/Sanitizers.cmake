# XSKX_SANITIZE selects run-time checkers for every target of the build
# (library, tests, examples):
#   address  AddressSanitizer + UndefinedBehaviorSanitizer (leaks included);
#            any UB report aborts, so a test cannot pass over one
#   thread   ThreadSanitizer, for the simulated NIC's threaded mode
# The flags are also left in XSKX_SANITIZER_FLAGS for code built outside this
# tree that must link against a sanitized libxskx (the install check).

set(XSKX_SANITIZER_FLAGS "")
if(XSKX_SANITIZE STREQUAL "address")
	set(XSKX_SANITIZER_FLAGS
		-fsanitize=address,undefined -fno-sanitize-recover=undefined)
elseif(XSKX_SANITIZE STREQUAL "thread")
	set(XSKX_SANITIZER_FLAGS -fsanitize=thread)
elseif(NOT XSKX_SANITIZE STREQUAL "")
	message(FATAL_ERROR "XSKX_SANITIZE=${XSKX_SANITIZE}: "
		"use address, thread or leave it empty")
endif()

if(XSKX_SANITIZER_FLAGS)
	# Frame pointers make the reports' stack traces complete and cheap.
	add_compile_options(${XSKX_SANITIZER_FLAGS} -fno-omit-frame-pointer)
	add_link_options(${XSKX_SANITIZER_FLAGS})
endif()
