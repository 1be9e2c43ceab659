from kb.cli import app

app(prog_name="kb")
