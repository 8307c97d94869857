#ifndef SC_LIMITS_H
#define SC_LIMITS_H
/* The run's fixed bounds (Documentation/measurement.txt "Measurement"): profile-run's defaults
 * and what every report states, so the report never claims a bound the run
 * did not have. */
#define SC_MAX_CHANGED_FILES 32 /* a plan lists at most this many changed files */
#define SC_MAX_IMPORTERS 32     /* and, with --importers, at most this many importers */
#define SC_LIMIT_PREBUILD_S 900
#define SC_LIMIT_SAMPLE_S 300
#define SC_LIMIT_PHASE_S 1800
#define SC_LIMIT_THREADS 1
/* A bound as text, for the sentences that state it. */
#define SC_XSTR(x) SC_STR_(x)
#define SC_STR_(x) #x

#endif
