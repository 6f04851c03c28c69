-- A memory a statement replaced (a restatement with another value, a change said in other words)
-- names the memory that took its place (superseded_by, set by a FactRetracted's `by`). Recall's
-- trace lists, beside what it shows, the memories those replaced, found by this index. Partial: a
-- supersession by an assert on its own key (the most common retirement) never needs it.
CREATE INDEX fl_memories_replaced_by ON fl_memories (tenant, superseded_by) WHERE retracted AND superseded_by IS NOT NULL;
