// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The fuzz targets without libFuzzer: runs LLVMFuzzerTestOneInput once on
 * every file named on the command line, or on every file of a directory
 * named there, in name order. What builds without clang's libFuzzer (gcc,
 * the ASan+UBSan build of CI) replays the seed corpus and the regression
 * inputs with it; a failed check aborts, with the file named first.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long size;

	if (!f || fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET)) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		if (f)
			fclose(f);
		return -1;
	}
	/* Exactly size bytes, so that ASan sees a read past the input. */
	buf = malloc(size ? (size_t)size : 1);
	if (!buf || fread(buf, 1, (size_t)size, f) != (size_t)size) {
		fprintf(stderr, "replay: %s: cannot read\n", path);
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	fprintf(stderr, "replay: %s (%ld bytes)\n", path, size);
	LLVMFuzzerTestOneInput(buf, (size_t)size);
	free(buf);
	return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

int main(int argc, char **argv)
{
	unsigned int files = 0;
	int failed = 0;

	for (int i = 1; i < argc; i++) {
		struct dirent **names;
		struct stat st;
		int n;

		if (stat(argv[i], &st)) {
			fprintf(stderr, "replay: %s: %s\n", argv[i],
				strerror(errno));
			failed = 1;
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			failed |= replay_file(argv[i]) < 0;
			files++;
			continue;
		}
		n = scandir(argv[i], &names, NULL, by_name);
		if (n < 0) {
			fprintf(stderr, "replay: %s: %s\n", argv[i],
				strerror(errno));
			failed = 1;
			continue;
		}
		for (int j = 0; j < n; j++) {
			char path[4096];

			if (names[j]->d_name[0] != '.') {
				snprintf(path, sizeof(path), "%s/%s", argv[i],
					 names[j]->d_name);
				failed |= replay_file(path) < 0;
				files++;
			}
			free(names[j]);
		}
		free(names);
	}
	if (!files) {
		fprintf(stderr, "replay: no input files\n");
		return 1;
	}
	printf("replay: %u inputs, no check failed\n", files);
	return failed;
}
