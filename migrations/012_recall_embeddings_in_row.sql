-- Recall's rows stay whole, embedding included. A 512-dimension vector (2 KB) makes a row just
-- longer than the point (~2 KB) at which PostgreSQL starts moving values out of line, so each
-- vector went to the TOAST table, and every vector read from this table (a candidate's cosine,
-- the pairwise cosines of the best twenty for diversity) was a TOAST index lookup and two chunk
-- reads: on a 100k-row index the diversity query spent 0.8 ms on its 190 pairs. (Changing the
-- column's storage to MAIN is not the way: the small text columns would go out of line first.)
-- With the target at a page, a row is left as it is unless it could not fit one (a model of
-- well over a thousand dimensions), and then the vector alone goes out of line, as before.
-- Rows indexed earlier stay as they are until re-indexed (or `VACUUM FULL fl_recall_index`).
ALTER TABLE fl_recall_index SET (toast_tuple_target = 8160);
