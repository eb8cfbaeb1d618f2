#!/bin/sh
# Writes the pqpan(1) man page from the CLI's own help texts, so the two cannot disagree:
# NAME and SYNOPSIS, then `pqpan --help` as the DESCRIPTION and every command's
# `pqpan help CMD` as a subsection of COMMANDS, verbatim (preformatted).
#   scripts/gen_man.sh PQPAN_BINARY > pqpan.1
set -eu
bin=$1
version=$("$bin" --version | awk '{ print $NF }')

# roff-escapes one help text: backslashes, and lines that start with . or ' (requests).
roff_text() {
    sed -e 's/\\/\\e/g' -e "s/^\\./\\\\\\&./" -e "s/^'/\\\\\\&'/"
}

commands=$("$bin" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }')

printf '.TH PQPAN 1 "" "pqpan %s" "User Commands"\n' "$version"
printf '.SH NAME\npqpan \\- the energy, time and memory cost of post-quantum key establishment over Bluetooth LE and IEEE 802.15.4\n'
printf '.SH SYNOPSIS\n.B pqpan\n[\\fB\\-\\-help\\fR | \\fB\\-\\-version\\fR]\n.I COMMAND\n[\\fIOPTIONS\\fR]\n'
printf '.SH DESCRIPTION\n.nf\n'
"$bin" --help | roff_text
printf '.fi\n.SH COMMANDS\n'
for c in $commands; do
    printf '.SS %s\n.nf\n' "$c"
    "$bin" help "$c" | roff_text
    printf '.fi\n'
done
printf '.SH SEE ALSO\ndocs/CLI.md, docs/MODEL.md and docs/PROTOCOL.md in the pqpan sources.\n'
