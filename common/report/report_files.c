/* The report files in the output folder (sc-report(1) FILES). */
#include "report/report_files.h"
#include "report/report_json.h"
#include "report/report_md.h"
#include "report/report_text.h"
#include "report/report.h"
#include "util/die.h"
#include "util/pathcheck.h"
#include "util/safefile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void sc_report_write_files(const struct sc_report *r, const char *dir)
{
	struct strbuf json = STRBUF_INIT, md = STRBUF_INIT, txt = STRBUF_INIT;
	sc_report_to_json(r, &json);
	sc_report_to_md(r, &md);
	sc_report_to_text(r, &txt);
	/* report.json is the commit record: it goes away first and comes back
	 * last, so a crash in between leaves no report.json beside a report.md
	 * of another run, and a report.json is never without its report.md. */
	char *json_path = sc_path_join(dir, "report.json");
	char *md_path = sc_path_join(dir, "report.md");
	char *txt_path = sc_path_join(dir, "report.txt");
	if (unlink(json_path) < 0 && errno != ENOENT)
		sc_die_sys_errno("cannot replace report.json (%s)", json_path);
	sc_write_file_atomic_or_die(md_path, md.buf, md.len, "report.md");
	sc_write_file_atomic_or_die(txt_path, txt.buf, txt.len, "report.txt");
	sc_write_file_atomic_or_die(json_path, json.buf, json.len, "report.json");
	free(json_path);
	free(md_path);
	free(txt_path);
	sb_release(&json);
	sb_release(&md);
	sb_release(&txt);
}
