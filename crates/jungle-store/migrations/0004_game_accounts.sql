-- The account in each seat of a game (NULL: a guest, the engine, or a seat nobody took). The seat's name
-- (blue_name / red_name) is then the account's name as it was when the seat was taken.
ALTER TABLE games ADD COLUMN blue_user_id INTEGER REFERENCES users(id);
ALTER TABLE games ADD COLUMN red_user_id INTEGER REFERENCES users(id);
CREATE INDEX games_by_blue_user ON games(blue_user_id);
CREATE INDEX games_by_red_user ON games(red_user_id);
