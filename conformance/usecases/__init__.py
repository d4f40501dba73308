"""What a user asks of the suite, each built on the engine: runs repeated, fleets of targets, the
passive proxy, fuzzing, mutants, re-judging a recording, attesting a report, and the reference
agents the commands that need them are given."""
