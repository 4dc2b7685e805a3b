package main

// Commands whose implementation files are shared with other tools keep their
// registration here, so those files stay plain functions.
func init() {
	commands["parse"] = command{usage: "--url URL FILE.html: print the recipe extracted from a saved page, as JSON (no database, no network)", run: runParse}
}
