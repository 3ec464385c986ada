"""Running the ``tablehub`` command in a test: a user's mistake must end in exit status 2 and one line on stderr,
never a traceback."""
from __future__ import annotations

from tablehub.cli import main


def one_line_error(capsys, argv) -> str:
    """``tablehub ARGV``'s error line, after checking it is exactly one line with exit status 2."""
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2, (code, out, err)
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err
