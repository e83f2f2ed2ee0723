#!/usr/bin/python3
"""A dogtail script that never heard of Rehearse: logs in through the accessible tree of the
application named APP (the first argument), as it would through any desktop application's.
Run by AccessibilityBusTests with Debian's python3-dogtail. GTK_MODULES says accessibility is on,
which dogtail checks before it starts (there is no desktop settings daemon here)."""
import os
import sys

os.environ["GTK_MODULES"] = "gail:atk-bridge"

from dogtail.config import config  # noqa: E402 (after the environment it reads)

config.logDebugToFile = False  # no log files left behind in /tmp

from dogtail import tree  # noqa: E402

app = tree.root.application(sys.argv[1])
username = app.child(roleName="text", name="Username")
username.doActionNamed("click")
username.text = "vijay"
username.doActionNamed("activate")
password = app.child(roleName="password text", name="Password")
print("password focused after Next:", password.focused)
password.text = "hunter2"
password.doActionNamed("activate")
print("username:", username.text)
print("password:", password.name)
