/**
 * Which modules may read the end_users table (decision 0155). One list, used twice by
 * `npm run lint:layers`: dependency-cruiser refuses an import of the end_users entity or of
 * EndUsersRepository from anywhere else (.dependency-cruiser.cjs), and scripts/check-table-readers.cjs
 * refuses SQL that names end_users anywhere else. Everyone else asks EndUsersService (or, for
 * the signed-in browser, BrowserSessionsService).
 */
const END_USER_READERS = [
  { folder: 'src/end-user-directory/', why: 'the table itself: its entity and EndUsersRepository' },
  { folder: 'src/end-users/', why: 'the accounts: registration, password sign-in and reset' },
  { folder: 'src/sessions/', why: "a browser session is answered with its user's email and state, in one statement" },
  { folder: 'src/second-factor/', why: 'the second step and the sign-in policy read the account they act for' },
  { folder: 'src/hosted-login/', why: 'the hosted pages find the account a browser signs in to, in its workspace' },
  { folder: 'src/email-verification/', why: 'marks an address verified and mails codes to the account' },
  { folder: 'src/scim/', why: "SCIM Users are end users (decision 0100); Groups list their members' names" },
  { folder: 'src/saml/sso/', why: "the assertion carries the signed-in user's profile, read with the parked request" },
  {
    folder: 'src/directory-events/',
    why: 'the directory snapshot reads users, groups and memberships with its feed position in one statement (one MVCC snapshot)',
  },
  { folder: 'src/sso-connections/', why: 'binds an upstream identity to the directory person with its verified email, or makes one (jit)' },
  { folder: 'src/oidc/', why: "the code exchange and UserInfo carry the user's claims, read with the code in one statement" },
];

module.exports = { END_USER_READERS };
