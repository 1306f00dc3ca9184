#!/bin/sh
# The lab agent: reads one shell command line from the connection, runs it with its output
# (stdout and stderr merged) going back, then a last line "__LAB_RC__ <exit status>".
# A command that must outlive the connection detaches itself (setsid ... >file 2>&1 &).
IFS= read -r command || exit 0
sh -c "$command" </dev/null 2>&1
echo "__LAB_RC__ $?"
