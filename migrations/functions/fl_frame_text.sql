-- fl_frame_text: a statement's start as restatement's look-up compares it (@factledger/domain
-- restatement.ts): lower-cased, punctuation made spaces, the articles the/a/an left out, words
-- joined by one space; the first 400 characters read, 160 kept (what frame alignment compares is
-- a sentence of at most forty words, and a look-up names its subject and verb only). A new English
-- statement's statements to align with are those whose fl_frame_text starts with that of its
-- subject and verb (`LIKE … || ' %'`, index fl_memories_frame_text); a Korean one's, those that
-- start with its first word (fl_frame_head).
-- The current definition: edit it here (see migrations.ts), never in a numbered migration.
CREATE OR REPLACE FUNCTION fl_frame_text(p_text text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT left(array_to_string(array_remove(array_remove(array_remove(array_remove(
    regexp_split_to_array(lower(regexp_replace(replace(left(p_text, 400), '’', ''''), '[^[:alnum:]'']+', ' ', 'g')), ' '),
    ''), 'the'), 'a'), 'an'), ' '), 160)
$$;
