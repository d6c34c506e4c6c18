-- Why a video failed, as a code the app words in the user's language (issue 43); failure_reason
-- keeps the operator's detail.
ALTER TABLE videos ADD COLUMN failure_code text;
