import { fail, type MethodHandler, stringArg } from './method-context.js';

const authTest: MethodHandler = ({ state }) => {
  const { identity } = state;
  return {
    ok: true,
    url: `https://${identity.teamDomain}.slack.com/`,
    team: identity.teamDomain,
    team_id: identity.teamId,
    user: identity.botName,
    user_id: identity.botUserId,
    bot_id: identity.botId,
    is_enterprise_install: false,
  };
};

const usersInfo: MethodHandler = ({ args, directory, state }) => {
  const id = stringArg(args, 'user');
  const user = id === undefined ? undefined : directory.user(id);
  if (!user) return fail('user_not_found');
  return {
    ok: true,
    user: {
      ...user,
      team_id: state.identity.teamId,
      deleted: false,
      is_bot: false,
      profile: { real_name: user.real_name, display_name: user.name },
    },
  };
};

const userGroupMembers: MethodHandler = ({ args, directory }) => {
  const id = stringArg(args, 'usergroup');
  const users = id === undefined ? undefined : directory.userGroup(id);
  if (!users) return fail('no_such_subteam');
  return { ok: true, users: [...users] };
};

const openConnection: MethodHandler = ({ issueSocketUrl }) => ({ ok: true, url: issueSocketUrl() });

export const workspaceMethods: Record<string, MethodHandler> = {
  'auth.test': authTest,
  'users.info': usersInfo,
  'usergroups.users.list': userGroupMembers,
  'apps.connections.open': openConnection,
};
