/*
 * study.h - the study's own files, read as they are (spec 001 §1.6, §3.5,
 * §3.6; corpus/benchmark-config.json).
 *
 * Each loader validates the schema and dies with "PROGRAM: FILE:LINE: what:
 * expected ..." on the first violation (the line found in the file's text).
 * The results are jansson values the caller releases.
 */
#ifndef CTX_STUDY_H
#define CTX_STUDY_H

#include <jansson.h>

/*
 * benchmark-config.json: the whole object, plus "_config_dir" (the directory
 * of the file, against which "paths" entries are resolved).  Checks the types
 * of the sections the programs use when present (inference_endpoint,
 * inference_parameters, prompt_template, models[], extraction,
 * archive_protocol).
 */
json_t *study_config_load(const char *path);

/* Typed config look-ups by dotted path, with a default when absent/null. */
double cfg_num(const json_t *cfg, const char *dotted, double def);
long long cfg_int(const json_t *cfg, const char *dotted, long long def);
const char *cfg_str(const json_t *cfg, const char *dotted, const char *def);
int cfg_bool(const json_t *cfg, const char *dotted, int def);
/* The models[] entry with this model_id (borrowed), or NULL. */
json_t *cfg_model(const json_t *cfg, const char *model_id);
/*
 * The btok tokenizer that counts a models[] entry's input (btok(1) MODELS):
 * its "tokenizer" member when present (a non-empty string, checked by
 * study_config_load), else from its family: llama -> llama3 (Llama 3.1's,
 * also the reference count); mistral -> mistral-v3 (SentencePiece v3, Mistral
 * Large 2407) when model_id contains "large", else mistral (Tekken, Mistral
 * Small 3.1); any other family names its tokenizer (qwen3, gemma3).  NULL
 * when the entry has no family.  Borrowed from model.
 */
const char *cfg_model_tokenizer(const json_t *model);
/* Resolve a "paths" entry against the config's directory; malloc'd or NULL. */
char *cfg_path(const json_t *cfg, const char *key);

/*
 * site-list.csv: one object per site with the §1.6 columns; site_id, domain,
 * llms_txt_url, html_docs_url, sector, verification_status required and
 * non-empty; llms_txt_page_count an integer; has_llms_full a boolean
 * (TRUE/FALSE); verification_status PASS, FAIL or EXCLUDED; site_id unique.
 * Numeric and boolean columns are converted to JSON types.
 */
json_t *study_sites_load(const char *path);

/*
 * The list loaders of bctx check: the same files and schema checks, but a
 * departure from the design is kept instead of fatal.  Type errors and
 * malformed files still die as above.  Every record receives "_line" (where it
 * starts) and, when something departs, "_problems": an array of {code,
 * message} with the loader's own message.
 *
 * study_sites_list: the rows of site-list.csv in file order; codes
 * "required" (a missing column or an empty required value), "type" (the
 * value stays the string), "enum" and "duplicate".
 */
json_t *study_sites_list(const char *path);

/*
 * questions.json: flattened to one object per question, in file order:
 * {site_id, domain, question_id, text, complexity, source_sections,
 * source_urls}.  question_id unique and prefixed by its site_id; complexity
 * one of single-fact, multi-section-synthesis, conceptual-relationship;
 * source_urls a non-empty array of strings.
 */
json_t *study_questions_load(const char *path);

/*
 * questions.json for bctx check: {"sites": [{site_id, domain, _line,
 * _index}], "questions": [the records above, each with _line, _site_index
 * and "_lines": {field: line}]}; codes "foreign_id" (not prefixed by its
 * site's id) and "duplicate_id".
 */
json_t *study_questions_list(const char *path);

/*
 * gold-answers.json: an object keyed by question_id, each value
 * {site_id, question_id, gold_answer, source_urls, verified_date}.
 */
json_t *study_gold_load(const char *path);

/*
 * gold-answers.json for bctx check: {"sites": [...], "answers": [in file
 * order, with _line, _site_index and _lines as above]}; verified_date is
 * null when absent or not a string; codes as for questions.
 */
json_t *study_gold_list(const char *path);

/* The three complexity levels of 001 §3.1 (NULL-terminated). */
extern const char *const study_complexities[];

#endif
