// Why a hit matched (issue 29): the shares of the score carried by keywords and by meaning (for a
// search with text), and the person, object or on-screen text of the hit that the query named.
import { memo } from 'react';
import { useT } from '../../../lib/locale-context';
import { useObjectName } from '../../../lib/object-names';
import type { MatchReason } from '../api';
import styles from './MatchReasons.module.css';

export const MatchReasons = memo(function MatchReasons({
  match,
  people = [],
  scene = false,
}: {
  match: MatchReason | undefined;
  /** People the older answers name outside `match` (matched_people). */
  people?: readonly string[];
  /** A scene hit says the person appears in this scene. */
  scene?: boolean;
}) {
  const t = useT();
  const objectName = useObjectName();
  const names = [...new Set([...(match?.people ?? []), ...people])];
  const reasons = [
    ...names.map((name) => t(scene ? 'search.personMatched' : 'match.person', { name })),
    ...(match?.objects ?? []).map((key) => t('match.object', { name: objectName(key) })),
    ...(match?.screenText ?? []).map((text) => t('match.screenText', { text })),
  ];
  const shares =
    match && match.keyword !== null && match.meaning !== null
      ? { keyword: Math.round(match.keyword * 100), meaning: 100 - Math.round(match.keyword * 100) }
      : null;
  if (!shares && reasons.length === 0) return null;
  return (
    <div className={styles.why} data-testid="match-reasons">
      {shares ? (
        <div className={styles.shares}>
          <span className={styles.bar} aria-hidden="true">
            <span className={styles.keyword} style={{ width: `${shares.keyword}%` }} />
          </span>
          <span data-testid="match-shares">{t('match.shares', shares)}</span>
        </div>
      ) : null}
      {reasons.length > 0 ? (
        <ul className={styles.reasons} aria-label={t('match.why')}>
          {reasons.map((reason) => (
            <li key={reason}>{reason}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
});
