-- fl_frame_head: where a statement's frame starts, for restatement's look-up (@factledger/domain
-- restatement.ts): the first word, and the second unless the first is Korean, lower-cased, with
-- punctuation and the articles the/a/an left out, and a Korean particle taken off the first word.
-- Any two statements that frame alignment can align share these words (the subject and the verb
-- come before any value), so fl_memories_frame_head finds them by an exact look-up.
-- The current definition: edit it here (see migrations.ts), never in a numbered migration.
CREATE OR REPLACE FUNCTION fl_frame_head(p_text text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN w[1] ~ '[가-힣]' THEN regexp_replace(w[1], '(으로|에서|에게|한테|까지|부터|은|는|이|가|을|를|에|의|도|만|로|와|과)$', '')
    ELSE coalesce(w[1], '') || ' ' || coalesce(w[2], '')
  END
  FROM (
    SELECT array_remove(array_remove(array_remove(array_remove(
      regexp_split_to_array(lower(regexp_replace(replace(p_text, '’', ''''), '[^[:alnum:]'']+', ' ', 'g')), ' '),
      ''), 'the'), 'a'), 'an') AS w
  ) words
$$;
