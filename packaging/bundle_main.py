"""Entry point of the one-folder bundle (PyInstaller, packaging/eec-studio.spec).

It is main.py's ``main`` — the GUI with no arguments, the CLI otherwise — plus the one thing a
frozen executable lacks: ``-c CODE``. The GUI runs each audit in a child started as
``[sys.executable, "-c", BOOT, …]`` (gui/audit/worker.py); in the bundle sys.executable is this
program, so it runs that code as ``python -c`` would (``sys.argv == ["-c", …]``).
"""
import multiprocessing
import sys


def run() -> None:
    multiprocessing.freeze_support()  # Windows/macOS children started by multiprocessing's spawn
    if len(sys.argv) >= 3 and sys.argv[1] == "-c":
        code = sys.argv[2]
        sys.argv = ["-c", *sys.argv[3:]]
        exec(compile(code, "<string>", "exec"), {"__name__": "__main__"})
        return
    import main

    try:
        code = main.main()
    except KeyboardInterrupt:
        code = 130
    main.exit_now(code)


if __name__ == "__main__":
    run()
