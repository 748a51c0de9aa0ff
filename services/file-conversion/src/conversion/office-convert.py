# Asks a running LibreOffice (started by office-server.ts with --accept on a pipe) to turn one document into a PDF.
# Usage: python3 office-convert.py PIPE_NAME INPUT OUTPUT FILTER CONNECT_SECONDS
# Exit status: 0 written; 3 LibreOffice could not load the document; 4 no connection; 1 anything else.
import os
import sys
import time

import uno
from com.sun.star.beans import PropertyValue
from com.sun.star.connection import NoConnectException


def prop(name, value):
    p = PropertyValue()
    p.Name = name
    p.Value = value
    return p


def main():
    pipe, src, dst, filter_name, connect_seconds = sys.argv[1:6]
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    deadline = time.monotonic() + float(connect_seconds)
    while True:
        try:
            ctx = resolver.resolve(f"uno:pipe,name={pipe};urp;StarOffice.ComponentContext")
            break
        except NoConnectException:
            # The office is still starting (its first job after a recycle).
            if time.monotonic() > deadline:
                return 4
            time.sleep(0.05)
    desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
    # Never run macros (MacroExecutionMode 0 = NEVER_EXECUTE) nor update links (UpdateDocMode 0 = NO_UPDATE),
    # whatever the profile says; read-only so nothing is written back.
    doc = desktop.loadComponentFromURL(
        uno.systemPathToFileUrl(src),
        "_blank",
        0,
        (
            prop("Hidden", True),
            prop("ReadOnly", True),
            prop("MacroExecutionMode", 0),
            prop("UpdateDocMode", 0),
        ),
    )
    if doc is None:
        return 3
    try:
        doc.storeToURL(uno.systemPathToFileUrl(dst), (prop("FilterName", filter_name),))
    finally:
        doc.close(True)
    return 0


if __name__ == "__main__":
    status = main()
    sys.stdout.flush()
    sys.stderr.flush()
    # Straight out, without the interpreter's teardown: disposing of the UNO bridge there can kill the process with a
    # signal after the PDF is written (seen in full test runs: the client ended by a signal, nothing on stderr), and a
    # job that worked must not read as failed. The office keeps running; nothing of ours is left to clean up here.
    os._exit(status)
