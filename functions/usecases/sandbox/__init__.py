"""The sandbox (issue 19): adjudicating hypothetical positions, and what-if previews."""
