/* Private to the run layer (src/run/) and its faces: the names of the run layer's internal
 * functions. Every global symbol of libpqpan-io starts with pqpan_ (STYLE.md habit 2,
 * tests/check_symbols.sh); the functions the run layer took from cli/ keep their short
 * names in the code that calls them and are exported as pqpan_run_NAME through these
 * macros, as mlkem-native namespaces its internal functions (MLK_NAMESPACE). They are no
 * API: only run.h is. */
#ifndef PQPAN_RUN_NS_H
#define PQPAN_RUN_NS_H

#define PQPAN_RUN_NS(name) pqpan_run_##name

#define cli_format_fixed PQPAN_RUN_NS(cli_format_fixed)
#define cli_format_int PQPAN_RUN_NS(cli_format_int)
#define cli_format_table PQPAN_RUN_NS(cli_format_table)
#define cli_format_uint PQPAN_RUN_NS(cli_format_uint)
#define cli_msg_set PQPAN_RUN_NS(cli_msg_set)
#define cli_opt_allowed PQPAN_RUN_NS(cli_opt_allowed)
#define cli_opt_default PQPAN_RUN_NS(cli_opt_default)
#define cli_opt_default_note PQPAN_RUN_NS(cli_opt_default_note)
#define cli_opt_find PQPAN_RUN_NS(cli_opt_find)
#define cli_opt_listed PQPAN_RUN_NS(cli_opt_listed)
#define cli_opt_meta PQPAN_RUN_NS(cli_opt_meta)
#define cli_opt_set_msg PQPAN_RUN_NS(cli_opt_set_msg)
#define cli_opt_store PQPAN_RUN_NS(cli_opt_store)
#define cli_opt_table_defaults PQPAN_RUN_NS(cli_opt_table_defaults)
#define cli_opt_table_words PQPAN_RUN_NS(cli_opt_table_words)
#define cli_opt_words PQPAN_RUN_NS(cli_opt_words)
#define cli_parse_conn_interval PQPAN_RUN_NS(cli_parse_conn_interval)
#define cli_parse_double PQPAN_RUN_NS(cli_parse_double)
#define cli_parse_format PQPAN_RUN_NS(cli_parse_format)
#define cli_parse_uint PQPAN_RUN_NS(cli_parse_uint)
#define cli_suggest_add PQPAN_RUN_NS(cli_suggest_add)
#define cli_suggest_init PQPAN_RUN_NS(cli_suggest_init)
#define cli_suggest_text PQPAN_RUN_NS(cli_suggest_text)
#define cli_text_add PQPAN_RUN_NS(cli_text_add)
#define cli_text_add_number PQPAN_RUN_NS(cli_text_add_number)
#define cli_text_in PQPAN_RUN_NS(cli_text_in)
#define cli_unknown_word_msg PQPAN_RUN_NS(cli_unknown_word_msg)
#define cli_word_canonical PQPAN_RUN_NS(cli_word_canonical)
#define cli_word_distance PQPAN_RUN_NS(cli_word_distance)
#define cli_word_equal PQPAN_RUN_NS(cli_word_equal)
#define cli_word_equal_n PQPAN_RUN_NS(cli_word_equal_n)
#define cli_word_index PQPAN_RUN_NS(cli_word_index)
#define cli_word_respell PQPAN_RUN_NS(cli_word_respell)
#define cli_words_each PQPAN_RUN_NS(cli_words_each)
#define cli_words_join PQPAN_RUN_NS(cli_words_join)

#endif
