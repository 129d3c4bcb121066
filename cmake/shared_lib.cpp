// libpqsig.so is the whole static archive (WHOLE_ARCHIVE); this file only gives the target a source.
