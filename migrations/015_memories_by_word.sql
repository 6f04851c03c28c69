-- Resolution (R22) compares a new statement with the tenant's earlier memories that share a
-- word with it ("I relocated to Munich" with "I'm based in Berlin" through the vocabulary of
-- homes): found by the words of their text, and by the start of a word, since a Korean word
-- carries its particle ("집은" starts with "집") and a light stem is a word's start ("nurs" of
-- "nursing"). The 'simple' configuration keeps every word as written, in any language.
CREATE INDEX fl_memories_words ON fl_memories USING gin (to_tsvector('simple', text));
