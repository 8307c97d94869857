#ifndef SC_LIMITS_H
#define SC_LIMITS_H
/* The run's fixed bounds (Documentation/measurement.txt "Measurement"): profile-run's defaults
 * and what every report states, so the report never claims a bound the run
 * did not have. */
/* A plan lists at most profile.maxFiles changed files (this default), and
 * .sphereceti can raise that to the ceiling, no further (measurement.txt
 * "Shards"). */
#define SC_DEFAULT_MAX_FILES 256
#define SC_MAX_FILES_CEILING 2000
#define SC_MAX_SHARDS 256 /* GitHub runs at most 256 jobs of one matrix */
#define SC_MAX_IMPORTERS 32     /* and, with --importers, at most this many importers */
#define SC_LIMIT_PREBUILD_S 900
#define SC_LIMIT_SAMPLE_S 300
#define SC_LIMIT_PHASE_S 1800
#define SC_LIMIT_THREADS 1
/* A bound as text, for the sentences that state it. */
#define SC_XSTR(x) SC_STR_(x)
#define SC_STR_(x) #x

#endif
