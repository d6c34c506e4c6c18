// Home (product-spec section 2): what the product does, and the ways in. Plain elements with a
// CSS module: a first screen, prerendered at build time and hydrated without Chakra (issue 8).
import { LanguageSwitcher } from '../../../components/LanguageSwitcher';
import { plainButtonClass } from '../../../components/PlainButton';
import { RouteLink } from '../../../components/RouteLink';
import { ROUTES } from '../../../config/routes';
import { CONTACT_INQUIRY_PARAM, CONTACT_URLS, PROVIDER_HOME_URL } from '../../../config/site';
import type { MessageId } from '../../../lib/i18n';
import { useLocale, useT } from '../../../lib/locale-context';
import { selectIsSignedIn } from '../../../lib/session-slice';
import { useAppSelector } from '../../../lib/store-hooks';
import landingEnglish from '../../../../lang/en.json?ns=landing';
import { ExtraMessages } from '../../../lib/extra-messages';
import hidden from '../../../components/visually-hidden.module.css';
import styles from './LandingPage.module.css';

interface Section {
  id: string;
  title: MessageId;
  body: MessageId;
  items?: MessageId[];
}

const SECTIONS: Section[] = [
  { id: 'trailer', title: 'landing.trailer.title', body: 'landing.trailer.body' },
  { id: 'report', title: 'landing.report.title', body: 'landing.report.body' },
  { id: 'search', title: 'landing.search.title', body: 'landing.search.body' },
  {
    id: 'cloud',
    title: 'landing.cloud.title',
    body: 'landing.cloud.body',
    items: ['landing.cloud.item1', 'landing.cloud.item2', 'landing.cloud.item3'],
  },
];

const BENEFITS: MessageId[] = [
  'landing.benefits.item1',
  'landing.benefits.item2',
  'landing.benefits.item3',
  'landing.benefits.item4',
];

export function contactUrl(locale: 'en' | 'ja', inquiry: string): string {
  const url = new URL(CONTACT_URLS[locale]);
  url.searchParams.set(CONTACT_INQUIRY_PARAM, inquiry);
  return url.toString();
}

function LandingPageContent() {
  const t = useT();
  const { locale } = useLocale();
  const signedIn = useAppSelector(selectIsSignedIn);
  const contact = (
    <a
      className={plainButtonClass({ variant: 'outline' })}
      href={contactUrl(locale, t('landing.contactInquiry'))}
      target="_blank"
      rel="noopener noreferrer"
    >
      {t('landing.contact')}
      <span className={hidden.srOnly}>{t('landing.contactNewTab')}</span>
    </a>
  );

  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <a className={styles.home} href={PROVIDER_HOME_URL}>
          {t('landing.nav.home')}
        </a>
        <div className={styles.actions}>
          <LanguageSwitcher />
          <RouteLink
            className={plainButtonClass()}
            href={signedIn ? ROUTES.videoList : ROUTES.login}
          >
            {signedIn ? t('landing.goToApp') : t('landing.login')}
          </RouteLink>
        </div>
      </header>
      <main>
        <section className={styles.hero}>
          <div className={styles.container}>
            <h1 className={styles.heroTitle}>{t('landing.intro.title')}</h1>
            <p className={styles.heroBody}>{t('landing.intro.body')}</p>
          </div>
        </section>
        <div className={`${styles.container} ${styles.sections}`}>
          {SECTIONS.map((section) => (
            <section key={section.id} aria-labelledby={`landing-${section.id}`}>
              <h2 className={styles.title} id={`landing-${section.id}`}>
                {t(section.title)}
              </h2>
              <p>{t(section.body)}</p>
              {section.items ? (
                <ul className={`${styles.list} ${styles.spaced}`}>
                  {section.items.map((item) => (
                    <li key={item}>{t(item)}</li>
                  ))}
                </ul>
              ) : null}
            </section>
          ))}
          <section aria-labelledby="landing-benefits">
            <h2 className={styles.title} id="landing-benefits">
              {t('landing.benefits.title')}
            </h2>
            <ul className={styles.list}>
              {BENEFITS.map((item) => (
                <li key={item}>{t(item)}</li>
              ))}
            </ul>
          </section>
          <section className={styles.demo} aria-labelledby="landing-demo">
            <h2 className={styles.title} id="landing-demo">
              {t('landing.demo.title')}
            </h2>
            <p className={styles.demoBody}>{t('landing.demo.body')}</p>
            {contact}
          </section>
        </div>
      </main>
      <footer className={styles.footer}>
        <RouteLink className={styles.footerLink} href={ROUTES.privacyPolicy}>
          {t('landing.nav.privacy')}
        </RouteLink>
      </footer>
    </div>
  );
}

/** The page carries its own English texts, which are not in the entry (first-screen budget). */
export function LandingPage() {
  return (
    <ExtraMessages english={landingEnglish}>
      <LandingPageContent />
    </ExtraMessages>
  );
}
